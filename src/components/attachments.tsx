/**
 * Files a user attaches before sending: an attach button, paste and drop,
 * previews with remove, and the host's limits checked as files arrive. The
 * files reach `send({ text, files })` through `useAttachments().take()`.
 */
import {
  createContext, forwardRef, useContext, useEffect, useMemo, useRef, useState,
  type ButtonHTMLAttributes, type HTMLAttributes, type MouseEvent, type ReactNode, type SyntheticEvent,
} from 'react'
import { checkFiles, type AttachmentLimits } from '../core/client/files'
import type { WeftError } from '../core/model/errors'
import { useLabels } from './labels'
import { Slot } from './slot'

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
export interface AttachmentsRootProps extends Omit<HTMLAttributes<HTMLDivElement>, 'onError'> {
  limits?: AttachmentLimits
  /** Told of each refusal. */
  onError?: (error: WeftError) => void
  children?: ReactNode
}

/**
 * Holds the files and takes drops and pastes anywhere inside it.
 * `data-state` is `dragging` while files are dragged over it. `className`,
 * `style`, the other DOM props and the ref go to its `<div>`; the host's drag,
 * drop and paste handlers run before its own (`preventDefault()` in them keeps
 * the files out).
 *
 * @example
 * <Attachments.Root className="dropzone"><Attachments.List /><Attachments.Button /></Attachments.Root>
 */
const Root = forwardRef<HTMLDivElement, AttachmentsRootProps>(function AttachmentsRoot(
  { limits, onError, children, onDragOver, onDragLeave, onDrop, onPaste, ...rest },
  ref,
) {
  const [files, setFiles] = useState<File[]>([])
  const [error, setError] = useState<WeftError | undefined>()
  const [dragging, setDragging] = useState(false)
  const current = useRef(files)
  current.current = files
  const state = useMemo<AttachmentsState>(() => {
    // The ref is the list between a change and its render, so two changes in one event both count.
    const keep = (next: File[]) => {
      current.current = next
      setFiles(next)
    }
    return {
      files,
      error,
      limits,
      add(incoming) {
        const next = [...current.current, ...incoming]
        const refused = checkFiles(next, limits)
        setError(refused)
        if (refused) onError?.(refused)
        else keep(next)
      },
      remove: (index) => keep(current.current.filter((_, i) => i !== index)),
      take() {
        const taken = current.current
        keep([])
        return taken
      },
    }
  }, [files, error, limits, onError])
  const { add } = state
  // Files dropped or pasted in: the host's handler runs first, and its `preventDefault()` keeps them out.
  const receive = <E extends SyntheticEvent>(event: E, host: ((event: E) => void) | undefined, files: FileList) => {
    host?.(event)
    if (event.defaultPrevented || files.length === 0) return
    event.preventDefault()
    setDragging(false)
    add(Array.from(files))
  }
  return (
    <AttachmentsContext.Provider value={state}>
      <div
        {...rest}
        ref={ref}
        data-weft="attachments"
        data-state={dragging ? 'dragging' : 'idle'}
        onDragOver={(event) => {
          onDragOver?.(event)
          if (event.defaultPrevented || !event.dataTransfer.types.includes('Files')) return
          event.preventDefault()
          setDragging(true)
        }}
        onDragLeave={(event) => {
          onDragLeave?.(event)
          setDragging(false)
        }}
        onDrop={(event) => receive(event, onDrop, event.dataTransfer.files)}
        onPaste={(event) => receive(event, onPaste, event.clipboardData.files)}
      >
        {children}
      </div>
    </AttachmentsContext.Provider>
  )
})

/**
 * Props of `Attachments.Button`.
 *
 * @example
 * <Attachments.Button label="Add a picture" />
 */
export interface AttachmentsButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Accessible name and text (default: the `attachFiles` label). */
  label?: string
  /** Render the host's own element (its only child) with this button's props and behaviour. */
  asChild?: boolean
}

/**
 * Opens the file chooser, limited to the accepted types. `className`, `style`,
 * the other DOM props and the ref go to the `<button>` (the file input beside
 * it stays hidden); the host's `onClick` runs first, and `preventDefault()` in
 * it keeps the chooser closed. Children replace the label as its content.
 *
 * @example
 * <Attachments.Button className="ghost" />
 * <Attachments.Button asChild><IconButton><PaperclipIcon /></IconButton></Attachments.Button>
 */
const Button = forwardRef<HTMLButtonElement, AttachmentsButtonProps>(function AttachmentsButton({ label, asChild, children, onClick, ...rest }, ref) {
  const labels = useLabels()
  const { add, limits } = useAttachments()
  const input = useRef<HTMLInputElement>(null)
  const name = label ?? labels.attachFiles
  const props = {
    type: 'button' as const,
    'aria-label': name,
    ...rest,
    'data-weft': 'attach',
    onClick: (event: MouseEvent<HTMLButtonElement>) => {
      onClick?.(event)
      if (!event.defaultPrevented) input.current?.click()
    },
  }
  return (
    <>
      {asChild
        ? <Slot {...(props as HTMLAttributes<HTMLElement>)} ref={ref}>{children}</Slot>
        : <button {...props} ref={ref}>{children ?? name}</button>}
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
})

/**
 * Props of `Attachments.List`.
 *
 * @example
 * <Attachments.List removeLabel={(name) => `Remove ${name}`} className="chips" />
 */
export interface AttachmentsListProps extends Omit<HTMLAttributes<HTMLUListElement>, 'children'> {
  /** Accessible name of each remove button (default: the `removeFile` label). */
  removeLabel?: (name: string) => string
}

/**
 * The attached files: an image preview or the name and size, each with a remove
 * button; the last refusal is announced below the list. `className`, `style`,
 * the other DOM props and the ref go to the `<ul>`, which is `hidden` while no
 * file is attached (so the ref always has an element).
 *
 * @example
 * <Attachments.List className="chips" />
 */
const List = forwardRef<HTMLUListElement, AttachmentsListProps>(function AttachmentsList({ removeLabel, ...rest }, ref) {
  const labels = useLabels()
  const { files, remove, error } = useAttachments()
  const nameOf = removeLabel ?? labels.removeFile
  return (
    <>
      <ul {...rest} ref={ref} data-weft="attachment-list" hidden={files.length === 0 || rest.hidden}>
        {files.map((file, index) => (
          <li key={`${file.name}-${index}`} data-weft="attachment">
            <Preview file={file} />
            <button type="button" aria-label={nameOf(file.name)} onClick={() => remove(index)}>×</button>
          </li>
        ))}
      </ul>
      {error && <p role="alert" data-weft="attachment-error">{labels.fileRefused(error)}</p>}
    </>
  )
})

function Preview({ file }: { file: File }) {
  const labels = useLabels()
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
      <span>{file.name}</span> <small>{labels.fileSize(file.size)}</small>
    </span>
  )
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
