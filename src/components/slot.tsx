/**
 * `asChild`: a part that hands its props and behaviour to the one element the
 * host passes as its child, instead of rendering its own element.
 */
import { Children, cloneElement, forwardRef, isValidElement, type ElementType, type HTMLAttributes, type ReactElement, type ReactNode, type Ref } from 'react'

type AnyProps = Record<string, unknown>

/**
 * The part's props merged over the child's: event handlers both run (the
 * child's first), class names are joined, styles are merged (the child's win).
 *
 * @example
 * mergeProps({ className: 'a', onClick: f }, { className: 'b', onClick: g }) // { className: 'a b', onClick: both }
 */
export function mergeProps(slot: AnyProps, child: AnyProps): AnyProps {
  const out: AnyProps = { ...slot, ...child }
  for (const key of Object.keys(slot)) {
    const a = slot[key]
    const b = child[key]
    if (/^on[A-Z]/.test(key) && typeof a === 'function' && typeof b === 'function') {
      out[key] = (...args: unknown[]) => {
        ;(b as (...x: unknown[]) => unknown)(...args)
        ;(a as (...x: unknown[]) => unknown)(...args)
      }
    } else if (key === 'className' && a && b) {
      out[key] = `${String(a)} ${String(b)}`
    } else if (key === 'style' && a && b) {
      out[key] = { ...(a as object), ...(b as object) }
    } else if (b === undefined) {
      out[key] = a
    }
  }
  return out
}

/**
 * Sets a ref of either kind (a callback or an object).
 *
 * @example
 * <div ref={(node) => { ownRef.current = node; setRef(forwarded, node) }} />
 */
export function setRef<T>(ref: Ref<T> | undefined, value: T | null): void {
  if (typeof ref === 'function') ref(value)
  else if (ref && typeof ref === 'object') (ref as { current: T | null }).current = value
}

/**
 * Renders its only child with the slot's props merged in (see `mergeProps`) and both refs set.
 *
 * @example
 * <Slot data-weft="composer-send" onClick={send}><MyButton /></Slot>
 */
export const Slot = forwardRef<HTMLElement, HTMLAttributes<HTMLElement> & { children?: ReactNode }>(function Slot({ children, ...props }, ref) {
  const child = Children.only(children)
  if (!isValidElement(child)) return null
  const childProps = child.props as AnyProps
  const childRef = (child as unknown as { ref?: Ref<HTMLElement> }).ref ?? (childProps.ref as Ref<HTMLElement> | undefined)
  return cloneElement(child, {
    ...mergeProps(props as AnyProps, childProps),
    ref: (node: HTMLElement | null) => {
      setRef(ref, node)
      setRef(childRef, node)
    },
  } as AnyProps)
})

/**
 * The host's element of an `asChild` part that draws content (a headline, an
 * error, a row): the part's content goes inside it unless it has children of its own.
 *
 * @example
 * asChild ? <Slot {...props}>{withContent(children, text)}</Slot> : <p {...props}>{text}</p>
 */
export function withContent(child: ReactNode, content: ReactNode): ReactNode {
  // No content (an image): nothing goes inside, which a void element could not take.
  if (!isValidElement(child) || content == null) return child
  const own = (child.props as AnyProps).children
  return own === undefined || own === null ? cloneElement(child, undefined, <>{content}</>) : child
}

/**
 * A part that draws content: its own element (`tag`) with the content inside,
 * or with `asChild` the host's only child (`host`) with the props merged in and
 * the content inside it (see `withContent`).
 *
 * @example
 * return drawPart('p', asChild, children, { ...rest, 'data-weft': 'notice' }, ref, text)
 */
// `any`: the part's ref is typed for its own element, which the host's element may not be.
export function drawPart(tag: ElementType, asChild: boolean | undefined, host: ReactNode, props: object, ref: Ref<any>, content: ReactNode): ReactElement {
  const Tag = asChild ? Slot : tag
  return <Tag {...props} ref={ref}>{asChild ? withContent(host, content) : content}</Tag>
}
