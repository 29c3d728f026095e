/**
 * A `<details>` that opens itself while its content needs the person (a call
 * running, waiting for an answer, failed) until the person toggles it; from
 * then on their choice wins. The summary's own toggle is replaced, so React's
 * `open` stays the one source of truth.
 */
import { useState, type MouseEvent } from 'react'

/** What a `<details>` and its `<summary>` take. */
export interface Disclosure {
  open: boolean
  onSummaryClick: (event: MouseEvent<HTMLElement>) => void
}

/** Open while `auto` holds, until the person chooses. */
export function useDisclosure(auto: boolean): Disclosure {
  const [choice, setChoice] = useState<boolean | undefined>(undefined)
  const open = choice ?? auto
  return {
    open,
    onSummaryClick: (event) => {
      event.preventDefault()
      setChoice(!open)
    },
  }
}
