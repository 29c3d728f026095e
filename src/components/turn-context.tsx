/**
 * The turn a part belongs to, so parts composed inside `Transcript.Turn` need
 * no `turnId` of their own.
 */
import { createContext, useContext } from 'react'

/**
 * Provided by `Transcript.Turn`.
 *
 * @example
 * <TurnIdContext.Provider value={turnId}><Sources /></TurnIdContext.Provider>
 */
export const TurnIdContext = createContext<string | undefined>(undefined)

/**
 * The turn id given as a prop, else the enclosing `Transcript.Turn`'s.
 *
 * @example
 * const turnId = useTurnIdFrom(props.turnId)
 */
export function useTurnIdFrom(explicit: string | undefined): string | undefined {
  const enclosing = useContext(TurnIdContext)
  return explicit ?? enclosing
}
