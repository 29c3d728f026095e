/**
 * "‹ 2 / 3 ›": switches between the siblings of a turn (regenerated answers,
 * edited questions). Renders nothing while the turn has no siblings.
 */
import { forwardRef, type HTMLAttributes } from 'react'
import { useBranch } from '../react/use-branch'
import { useLabels } from './labels'

/**
 * Props of `BranchPicker`.
 *
 * @example
 * <BranchPicker turnId={turn.id} previousLabel="Previous answer" nextLabel="Next answer" />
 */
export interface BranchPickerProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  turnId: string
  /** Accessible name of the back button (default: the `previousVersion` label). */
  previousLabel?: string
  /** Accessible name of the forward button (default: the `nextVersion` label). */
  nextLabel?: string
  /** Accessible name of the group, given the place and count (default: the `versionOf` label, "Version 2 of 3"). */
  describe?: (position: number, count: number) => string
}

/**
 * A picker over a turn's branches. `data-state` is `first`, `middle` or `last`.
 * `className`, `style`, the other DOM props and the ref go to its root group;
 * `data-weft`, `data-state` and `role` stay the kit's, and an `aria-label`
 * given here replaces the "Version 2 of 3" name.
 *
 * @example
 * <Transcript.Turn turnId={id}><BranchPicker turnId={id} className="versions" /></Transcript.Turn>
 */
export const BranchPicker = forwardRef<HTMLDivElement, BranchPickerProps>(function BranchPicker(
  { turnId, previousLabel, nextLabel, describe, ...rest },
  ref,
) {
  const labels = useLabels()
  const { index, count, select } = useBranch(turnId)
  if (count <= 1) return null
  const position = index + 1
  const state = index === 0 ? 'first' : index === count - 1 ? 'last' : 'middle'
  const name = (describe ?? labels.versionOf)(position, count)
  return (
    <div aria-label={name} {...rest} ref={ref} role="group" data-weft="branch-picker" data-state={state}>
      <button type="button" aria-label={previousLabel ?? labels.previousVersion} disabled={index === 0} onClick={() => select(index - 1)}>‹</button>
      <span aria-hidden="true">{position} / {count}</span>
      <button type="button" aria-label={nextLabel ?? labels.nextVersion} disabled={index === count - 1} onClick={() => select(index + 1)}>›</button>
    </div>
  )
})
