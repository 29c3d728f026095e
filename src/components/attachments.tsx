/**
 * Files a user attaches before sending: an attach button, paste and drop,
 * previews with remove, and the host's limits checked as files arrive. The
 * files reach `send({ text, files })` through `useAttachments().take()`.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type ReactNode } from 'react'
import { checkFiles, type AttachmentLimits } from '../core/conversation'
import type { WeftError } from '../core/errors'

/**
 * What `useAttachments` gives.
 *
 * @example
 * const { files, take } = useAttachments(); send({ text, files: take() })
 */
export interface AttachmentsState {
  files: readonly File[]
  /** The last refusal (a file over the limits), cleared by the next accepted file. */
  error: WeftError | undefined
  add(files: Iterable<File>): void
  remove(index: number): void
  /** The files, and an empty list from now on: call it when sending. */
  take(): File[]
  limits: AttachmentLimits | undefined
}

const AttachmentsContext = createContext<AttachmentsState | null>(null)

/**
 * How many files wait in the nearest `Attachments.Root` (0 outside one); the
 * composer sends them even without text.
 *
 * @example
 * const count = useAttachedCount()
 */
export function useAttachedCount(): number {
  return useContext(AttachmentsContext)?.files.length ?? 0
}

/**
 * The attachments of the nearest `Attachments.Root`.
 *
 * @example
 * function SendBox() {
 *   const { take } = useAttachments()
 *   return <Composer send={(text) => send({ text, files: take() })} />
 * }
 */
export function useAttachments(): AttachmentsState {
  const state = useContext(AttachmentsContext)
  if (!state) throw new Error('weft: useAttachments() and <Attachments.*> must sit inside <Attachments.Root>')
  return state
}

/**
 * Props of `Attachments.Root`.
 *
 * @example
 * <Attachments.Root limits={{ accept: ['image/*'], maxSize: 5e6, maxCount: 4 }} />
 */
export interface AttachmentsRootProps {
  limits?: AttachmentLimits
  /** Told of each refusal. */
  onError?: (error: WeftError) => void
  children?: ReactNode
}

/**
 * Holds the files and takes drops and pastes anywhere inside it.
 * `data-state` is `dragging` while files are dragged over it.
 *
 * @example
 * <Attachments.Root><Attachments.List /><Attachments.Button /></Attachments.Root>
 */
function Root({ limits, onError, children }: AttachmentsRootProps) {
  const [files, setFiles] = useState<File[]>([])
  const [error, setError] = useState<WeftError | undefined>()
  const [dragging, setDragging] = useState(false)
  const current = useRef(files)
  current.current = files
  const add = useCallback((incoming: Iterable<File>) => {
    const next = [...current.current, ...incoming]
    const refused = checkFiles(next, limits)
    if (refused) {
      setError(refused)
      onError?.(refused)
      return
    }
    setError(undefined)
    current.current = next
    setFiles(next)
  }, [limits, onError])
  const remove = useCallback((index: number) => {
    const next = current.current.filter((_, i) => i !== index)
    current.current = next
    setFiles(next)
  }, [])
  const take = useCallback(() => {
    const taken = current.current
    current.current = []
    setFiles([])
    return taken
  }, [])
  const state = useMemo<AttachmentsState>(() => ({ files, error, add, remove, take, limits }), [files, error, add, remove, take, limits])
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    if (!event.dataTransfer.files.length) return
    event.preventDefault()
    setDragging(false)
    add(Array.from(event.dataTransfer.files))
  }
  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    const pasted = Array.from(event.clipboardData.files)
    if (pasted.length === 0) return
    event.preventDefault()
    add(pasted)
  }
  return (
    <AttachmentsContext.Provider value={state}>
      <div
        data-weft="attachments"
        data-state={dragging ? 'dragging' : 'idle'}
        onDragOver={(event) => {
          if (!event.dataTransfer.types.includes('Files')) return
          event.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        onPaste={onPaste}
      >
        {children}
      </div>
    </AttachmentsContext.Provider>
  )
}

/**
 * Props of `Attachments.Button`.
 *
 * @example
 * <Attachments.Button label="Add a picture" />
 */
export interface AttachmentsButtonProps {
  /** Accessible name and text (default "Attach files"). */
  label?: string
}

/**
 * Opens the file chooser, limited to the accepted types.
 *
 * @example
 * <Attachments.Button />
 */
function Button({ label = 'Attach files' }: AttachmentsButtonProps) {
  const { add, limits } = useAttachments()
  const input = useRef<HTMLInputElement>(null)
  return (
    <>
      <button type="button" data-weft="attach" aria-label={label} onClick={() => input.current?.click()}>{label}</button>
      <input
        ref={input}
        type="file"
        multiple={limits?.maxCount !== 1}
        accept={limits?.accept?.join(',')}
        hidden
        onChange={(event) => {
          if (event.currentTarget.files) add(Array.from(event.currentTarget.files))
          event.currentTarget.value = ''
        }}
      />
    </>
  )
}

/**
 * Props of `Attachments.List`.
 *
 * @example
 * <Attachments.List removeLabel={(name) => `Remove ${name}`} />
 */
export interface AttachmentsListProps {
  /** Accessible name of each remove button (default "Remove <name>"). */
  removeLabel?: (name: string) => string
}

/**
 * The attached files: an image preview or the name and size, each with a remove
 * button; the last refusal is announced.
 *
 * @example
 * <Attachments.List />
 */
function List({ removeLabel = (name) => `Remove ${name}` }: AttachmentsListProps) {
  const { files, remove, error } = useAttachments()
  return (
    <>
      {files.length > 0 && (
        <ul data-weft="attachment-list">
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`} data-weft="attachment">
              <Preview file={file} />
              <button type="button" aria-label={removeLabel(file.name)} onClick={() => remove(index)}>×</button>
            </li>
          ))}
        </ul>
      )}
      {error && <p role="alert" data-weft="attachment-error">{error.message}</p>}
    </>
  )
}

function Preview({ file }: { file: File }) {
  const [url, setUrl] = useState<string | undefined>()
  const image = file.type.startsWith('image/')
  useEffect(() => {
    if (!image) return undefined
    const made = URL.createObjectURL(file)
    setUrl(made)
    return () => URL.revokeObjectURL(made)
  }, [file, image])
  return (
    <span data-weft="attachment-preview">
      {image && url ? <img src={url} alt={file.name} /> : null}
      <span>{file.name}</span> <small>{formatSize(file.size)}</small>
    </span>
  )
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 102.4) / 10} KB`
  return `${Math.round(bytes / 104857.6) / 10} MB`
}

/**
 * The composer's attachments, as parts: `Root`, `Button`, `List`.
 *
 * @example
 * <Attachments.Root limits={{ accept: ['image/*'] }}>
 *   <Attachments.List />
 *   <Attachments.Button />
 *   <SendBox />
 * </Attachments.Root>
 */
export const Attachments = { Root, Button, List }
