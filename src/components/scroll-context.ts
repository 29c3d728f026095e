/**
 * The element a transcript scrolls in, so a virtualized transcript can follow
 * it; provided by `Chat` (its viewport) or by a host with its own scroller.
 */
import { createContext, type RefObject } from 'react'

/**
 * The scrolling element around a transcript.
 *
 * @example
 * <TranscriptScrollContext.Provider value={scrollerRef}><Transcript.Root virtualize={50} /></TranscriptScrollContext.Provider>
 */
export const TranscriptScrollContext = createContext<RefObject<HTMLElement | null> | undefined>(undefined)
