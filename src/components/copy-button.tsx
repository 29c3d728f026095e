/**
 * A button that copies text to the clipboard and says so for a moment.
 */
import { forwardRef, useEffect, useRef, useState, type ButtonHTMLAttributes, type HTMLAttributes } from 'react'
import { useLabels } from './labels'
import { Slot } from './slot'

/**
 * Props of `CopyButton`.
 *
 * @example
 * <CopyButton text={code} label="Copy code" />
 */
export interface CopyButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick'> {
  /** What to copy, or a function that returns it at click time. */
  text: string | (() => string)
  /** The button's accessible name and text (default "Copy"). */
  label?: string
  /** Render the host's own element (its only child) with this button's props and behaviour; its children stay. */
  asChild?: boolean
}

/**
 * Copies `text` with the Clipboard API; `data-state` is `copied` for two
 * seconds after a copy, `failed` when the browser refused.
 *
 * @example
 * <CopyButton text={() => partProps(message, 'text').content} />
 * <CopyButton text={code} asChild><IconButton><CopyIcon /></IconButton></CopyButton>
 */
export const CopyButton = forwardRef<HTMLButtonElement, CopyButtonProps>(function CopyButton({ text, label, asChild, children, ...rest }, ref) {
  const labels = useLabels()
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(typeof text === 'function' ? text() : text)
      setState('copied')
    } catch {
      setState('failed')
    }
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setState('idle'), 2000)
  }
  const name = label ?? labels.copy
  const props = { type: 'button' as const, 'aria-label': name, title: name, ...rest, 'data-weft': 'copy', 'data-state': state, onClick: () => void copy() }
  if (asChild) return <Slot {...(props as HTMLAttributes<HTMLElement>)} ref={ref}>{children}</Slot>
  return (
    <button {...props} ref={ref}>
      {children ?? (state === 'copied' ? labels.copied : name)}
    </button>
  )
})
