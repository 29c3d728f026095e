/**
 * What Storybook's "weft" panel shows: the story's inspector as the preview
 * last sent it, drawn in the story's theme.
 */
import type { AgentFixture } from '../../testing/frames'
import { Inspector } from '../panel'
import { EMPTY_SNAPSHOT } from '../snapshot'
import type { InspectorMessage } from './channel'

/**
 * Props of `InspectorAddonView`.
 *
 * @example
 * <InspectorAddonView message={lastMessage} />
 */
export interface InspectorAddonViewProps {
  /** The latest message from the preview; none yet while the story loads. */
  message: InspectorMessage | undefined
  onSaveRecording?: (fixture: AgentFixture) => void
}

/**
 * The manager panel's content, apart from Storybook's manager API so it renders anywhere.
 *
 * @example
 * <InspectorAddonView message={{ storyId: 'chat--live', snapshot: inspector.getSnapshot() }} />
 */
export function InspectorAddonView({ message, onSaveRecording }: InspectorAddonViewProps) {
  return (
    <div data-theme={message?.theme ?? 'light'} data-story-id={message?.storyId} style={{ padding: '0.75rem', minHeight: '100%', boxSizing: 'border-box', background: 'var(--weft-bg)', color: 'var(--weft-fg)' }}>
      {message ? (
        // One panel per story: a new story starts with its own turns and its own choice of turn.
        <Inspector key={message.storyId} snapshot={message.snapshot} {...(onSaveRecording ? { onSaveRecording } : {})} />
      ) : (
        <Inspector snapshot={EMPTY_SNAPSHOT} />
      )}
    </div>
  )
}
