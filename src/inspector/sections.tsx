/**
 * The inspector panel's sections for one turn: the request, the frames as they
 * arrived (each expandable to its raw data and the ops it became), problems and
 * timings. Everything a server sent is shown as text, never as markup.
 */
import { forwardRef, useId, type HTMLAttributes } from 'react'
import type { WeftError } from '../core/model/errors'
import type { InspectedFrame, InspectedRequest, InspectedTurn } from './snapshot'

/**
 * Props of a section of the inspector: the turn it shows.
 *
 * @example
 * <InspectorFrames turn={turn} />
 */
export interface InspectorSectionProps extends HTMLAttributes<HTMLElement> {
  turn: InspectedTurn
}

/**
 * The requests the turn's runs made: kind, method, URL, trigger, run id, headers
 * (secret values redacted) and the body as sent.
 *
 * @example
 * <InspectorRequest turn={turn} />
 */
export const InspectorRequest = forwardRef<HTMLElement, InspectorSectionProps>(function InspectorRequest({ turn, ...rest }, ref) {
  const id = useId()
  return (
    <section aria-labelledby={id} {...rest} ref={ref} data-weft="wire-request" data-count={turn.requests.length}>
      <h3 id={id}>Request{turn.requests.length > 1 ? `s (${turn.requests.length})` : ''}</h3>
      {turn.requests.length === 0 ? <p data-weft="wire-empty">No request was made.</p> : null}
      {turn.requests.map((request) => (
        <RequestView key={request.index} request={request} open={request.index === 0} start={turn.requests[0]!.at} />
      ))}
    </section>
  )
})

function RequestView({ request, open, start }: { request: InspectedRequest; open: boolean; start: number }) {
  const headers = Object.entries(request.headers)
  return (
    <details data-weft="wire-request-item" data-kind={request.kind} open={open}>
      <summary>
        <span data-weft="wire-tag">{request.kind}</span> {request.method} <span data-weft="wire-url">{request.url}</span>
        {request.index > 0 ? ` · +${formatMs(request.at - start)}` : ''}
      </summary>
      <dl data-weft="wire-fields">
        {request.trigger ? <Field name="Trigger" value={request.trigger} /> : null}
        {request.runId ? <Field name="Run id" value={request.runId} /> : null}
        {request.lastEventId !== undefined ? <Field name="Last-Event-ID" value={request.lastEventId} /> : null}
      </dl>
      {headers.length > 0 ? (
        <table data-weft="wire-headers">
          <caption>Headers</caption>
          <tbody>
            {headers.map(([name, value]) => (
              <tr key={name}><th scope="row">{name}</th><td>{value}</td></tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {request.body !== undefined ? (
        <>
          <p data-weft="wire-caption">Body</p>
          {/* Focusable, so a keyboard can scroll it. */}
          <pre tabIndex={0} aria-label="Request body">{pretty(request.body)}</pre>
        </>
      ) : null}
    </details>
  )
}

/**
 * The frames as they arrived: offset from the request, event name and id, the
 * raw data, and the ops each became (expand a row). A frame that became a
 * problem is marked (`data-problem`). Frames past the limit are counted above the list.
 *
 * @example
 * <InspectorFrames turn={turn} />
 */
export const InspectorFrames = forwardRef<HTMLElement, InspectorSectionProps>(function InspectorFrames({ turn, ...rest }, ref) {
  const id = useId()
  const seen = turn.frames.length + turn.droppedFrames
  return (
    <section aria-labelledby={id} {...rest} ref={ref} data-weft="wire-frames" data-count={seen}>
      <h3 id={id}>Frames ({seen})</h3>
      {turn.droppedFrames > 0 ? (
        <p data-weft="wire-dropped" role="note">
          {turn.droppedFrames} later {turn.droppedFrames === 1 ? 'frame was' : 'frames were'} not kept (the first {turn.frames.length} are shown)
        </p>
      ) : null}
      {turn.frames.length === 0 ? <p data-weft="wire-empty">No frame has arrived.</p> : (
        <ol data-weft="wire-frame-list">
          {turn.frames.map((frame) => <FrameRow key={frame.index} frame={frame} />)}
        </ol>
      )}
    </section>
  )
})

function FrameRow({ frame }: { frame: InspectedFrame }) {
  const problem = frame.problems > 0
  return (
    <li data-weft="wire-frame" data-problem={problem ? '' : undefined} data-request={frame.request}>
      <details>
        <summary>
          <span data-weft="wire-offset">+{formatMs(frame.offsetMs)}</span>
          {frame.event !== undefined ? <span data-weft="wire-tag">{frame.event}</span> : null}
          {frame.id !== undefined ? <span data-weft="wire-id">#{frame.id}</span> : null}
          <span data-weft="wire-preview">{preview(frame.data)}</span>
          <span data-weft="wire-op-count">
            {frame.ops.length} {frame.ops.length === 1 ? 'op' : 'ops'}
            {problem ? `, ${frame.problems} ${frame.problems === 1 ? 'problem' : 'problems'}` : ''}
          </span>
        </summary>
        <p data-weft="wire-caption">Data</p>
        <pre tabIndex={0} aria-label={`Frame ${frame.index + 1} data`}>{pretty(frame.data)}</pre>
        <p data-weft="wire-caption">Ops</p>
        <pre tabIndex={0} aria-label={`Frame ${frame.index + 1} ops`}>{frame.ops.length === 0 ? '(none)' : frame.ops.map((op) => json(op)).join('\n')}</pre>
      </details>
    </li>
  )
}

/**
 * What went wrong: the turn's error, each run's end in error, and the problems
 * the fold kept on the turn (a malformed frame, an unknown event).
 *
 * @example
 * <InspectorProblems turn={turn} />
 */
export const InspectorProblems = forwardRef<HTMLElement, InspectorSectionProps>(function InspectorProblems({ turn, ...rest }, ref) {
  const id = useId()
  const problems: Array<{ source: string; error: WeftError }> = [
    ...(turn.error ? [{ source: 'turn', error: turn.error }] : []),
    ...turn.ends.flatMap((end, i) => (end.error && end.error !== turn.error && !sameError(end.error, turn.error) ? [{ source: `run ${i + 1} (${end.outcome})`, error: end.error }] : [])),
    ...turn.problems.map((error) => ({ source: 'fold', error })),
  ]
  return (
    <section aria-labelledby={id} {...rest} ref={ref} data-weft="wire-problems" data-count={problems.length}>
      <h3 id={id}>Problems ({problems.length})</h3>
      {problems.length === 0 ? <p data-weft="wire-empty">None.</p> : (
        <ul>
          {problems.map(({ source, error }, i) => (
            <li key={i} data-weft="wire-problem" data-type={error.type}>
              <span data-weft="wire-tag">{error.type}{error.code ? ` · ${error.code}` : ''}</span> {error.message}
              <span data-weft="wire-muted"> ({source}{error.status !== undefined ? `, HTTP ${error.status}` : ''})</span>
              {error.detail ? <pre tabIndex={0} aria-label="Problem detail">{error.detail}</pre> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
})

/**
 * Timings from the turn's `timing` (time to first token and total, per run), how
 * each run ended, and the usage the protocol reported.
 *
 * @example
 * <InspectorTimings turn={turn} />
 */
export const InspectorTimings = forwardRef<HTMLElement, InspectorSectionProps>(function InspectorTimings({ turn, ...rest }, ref) {
  const id = useId()
  const runs = turn.timing?.runs ?? []
  const usage = turn.usage ? Object.entries(turn.usage).filter(([key, value]) => key !== 'raw' && key !== 'byModel' && (typeof value === 'number' || typeof value === 'string')) : []
  return (
    <section aria-labelledby={id} {...rest} ref={ref} data-weft="wire-timings">
      <h3 id={id}>Timings</h3>
      {runs.length === 0 ? <p data-weft="wire-empty">No timing was stamped.</p> : (
        <table data-weft="wire-runs">
          <thead>
            <tr><th scope="col">Run</th><th scope="col">First token</th><th scope="col">Total</th><th scope="col">Ended</th></tr>
          </thead>
          <tbody>
            {runs.map((run, i) => (
              <tr key={i}>
                <th scope="row">{i + 1}</th>
                <td>{run.firstTokenAt !== undefined ? formatMs(run.firstTokenAt - run.startedAt) : '–'}</td>
                <td>{run.endedAt !== undefined ? formatMs(run.endedAt - run.startedAt) : 'running'}</td>
                <td>{turn.ends[i]?.outcome ?? (run.endedAt !== undefined ? 'yes' : '–')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {usage.length > 0 ? (
        <dl data-weft="wire-fields" aria-label="Usage">
          {usage.map(([key, value]) => <Field key={key} name={key} value={String(value)} />)}
        </dl>
      ) : null}
    </section>
  )
})

function Field({ name, value }: { name: string; value: string }) {
  return (
    <div data-weft="wire-field">
      <dt>{name}</dt>
      <dd>{value}</dd>
    </div>
  )
}

/**
 * Milliseconds as a reader wants them: `840 ms`, `1.25 s`.
 *
 * @example
 * formatMs(1250) // '1.25 s'
 */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–'
  const value = Math.max(0, Math.round(ms))
  return value < 1000 ? `${value} ms` : `${(value / 1000).toFixed(2)} s`
}

function preview(data: string): string {
  const flat = data.replace(/\s+/g, ' ')
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat
}

/** JSON data indented for reading; anything else as it arrived. */
function pretty(text: string): string {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? JSON.stringify(value, null, 2) : text
  } catch {
    return text
  }
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

function sameError(a: WeftError, b: WeftError | undefined): boolean {
  return b !== undefined && a.type === b.type && a.message === b.message
}
