import { act, fireEvent, screen } from '@testing-library/react'
import { createRef, forwardRef, type HTMLAttributes } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { Attachments } from '../../src/components/attachments'
import { Citation } from '../../src/components/citations'
import { Composer } from '../../src/components/composer'
import { CopyButton } from '../../src/components/copy-button'
import { CodeBlock } from '../../src/components/markdown/code-block'
import { MarkdownSettingsProvider } from '../../src/components/markdown/markdown'
import { StatusBar } from '../../src/components/status-bar'
import { Trace, TraceHeadline } from '../../src/components/trace'
import { TurnError } from '../../src/components/transcript'
import { weftError } from '../../src/core/model/errors'
import type { Source } from '../../src/core/model/model'
import type { Op } from '../../src/core/model/ops'
import { renderWith, storeWith } from './support'

const source: Source = { id: 's1', kind: 'url', url: 'https://example.com/a', title: 'Example A', citationIndex: 1 }

const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'cat.png', { type: 'image/png' })

function transfer(...files: File[]): DataTransfer {
  const data = new DataTransfer()
  for (const file of files) data.items.add(file)
  return data
}

/** A host's own element that forwards its ref and props, as a design system's button does. */
const HostBox = forwardRef<HTMLElement, HTMLAttributes<HTMLElement> & { as?: 'li' | 'h3' | 'div' | 'footer' }>(function HostBox({ as: Tag = 'div', ...props }, ref) {
  return <Tag {...props} ref={ref as never} />
})

const failedTurn: Op[] = [
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  { op: 'trace.node', turnId: 't1', node: { id: 'n1', kind: 'tool', label: 'Searched call notes', status: 'done' } },
  { op: 'trace.node', turnId: 't1', node: { id: 'n2', kind: 'tool', label: 'Read the contract', status: 'done' } },
  { op: 'turn.finish', turnId: 't1', status: 'error', error: weftError('network', 'The connection dropped.') },
  { op: 'stream.status', status: 'error', error: weftError('network', 'The connection dropped.') },
]

describe('className, style, DOM props and the ref reach the root', () => {
  it('Attachments.Root, .Button and .List; drop still works through a host onDrop, and the kit’s data-weft stays', () => {
    const root = createRef<HTMLDivElement>()
    const button = createRef<HTMLButtonElement>()
    const list = createRef<HTMLUListElement>()
    const onDrop = vi.fn()
    renderWith(storeWith([]),
      <Attachments.Root ref={root} className="drop" style={{ padding: '3px' }} data-testid="root" data-weft="mine" onDrop={onDrop}>
        <Attachments.List ref={list} className="chips" aria-label="Files" />
        <Attachments.Button ref={button} className="ghost" id="attach" />
      </Attachments.Root>,
    )
    expect(root.current).toBe(screen.getByTestId('root'))
    expect(root.current!.className).toBe('drop')
    expect(root.current!.style.padding).toBe('3px')
    expect(root.current!.getAttribute('data-weft')).toBe('attachments')
    expect(root.current!.getAttribute('data-state')).toBe('idle')
    expect(button.current).toBe(screen.getByRole('button', { name: 'Attach files' }))
    expect(button.current!.className).toBe('ghost')
    expect(button.current!.id).toBe('attach')
    // The list is there (hidden) before any file, so the ref is set from the start.
    expect(list.current!.hidden).toBe(true)
    expect(list.current!.className).toBe('chips')
    act(() => { root.current!.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer(png()), bubbles: true, cancelable: true })) })
    expect(onDrop).toHaveBeenCalledTimes(1)
    expect(list.current!.hidden).toBe(false)
    expect(screen.getByRole('list', { name: 'Files' }).querySelectorAll('[data-weft="attachment"]')).toHaveLength(1)
  })

  it('a host onDrop that calls preventDefault keeps the files out', () => {
    renderWith(storeWith([]),
      <Attachments.Root data-testid="root" onDrop={(event) => event.preventDefault()}>
        <Attachments.List />
      </Attachments.Root>,
    )
    act(() => { screen.getByTestId('root').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer(png()), bubbles: true, cancelable: true })) })
    expect(document.querySelectorAll('[data-weft="attachment"]')).toHaveLength(0)
  })

  it('Citation: the ref, className and style go to its link; href, target and data-weft stay', () => {
    const ref = createRef<HTMLElement>()
    renderWith(storeWith([]), <Citation ref={ref} marker="[1]" source={source} className="cite" style={{ color: 'red' }} target="_self" data-weft="mine" />)
    const link = screen.getByRole('link', { name: '[1]' })
    expect(ref.current).toBe(link)
    expect(link.className).toBe('cite')
    expect(link.style.color).toBe('red')
    expect(link.getAttribute('href')).toBe('https://example.com/a')
    expect(link.getAttribute('target')).toBe('_blank')
    expect(link.getAttribute('data-weft')).toBe('citation')
  })

  it('CodeBlock: the ref and DOM props go to its root, data-state stays', () => {
    const ref = createRef<HTMLDivElement>()
    renderWith(storeWith([]),
      <MarkdownSettingsProvider highlight={false}>
        <CodeBlock ref={ref} code="const a = 1" lang="ts" className="my-code" data-testid="code" data-state="mine" />
      </MarkdownSettingsProvider>,
    )
    expect(ref.current).toBe(screen.getByTestId('code'))
    expect(ref.current!.className).toBe('my-code')
    expect(ref.current!.getAttribute('data-weft')).toBe('code-block')
    expect(ref.current!.getAttribute('data-state')).toBe('plain')
    expect(ref.current!.querySelector('code')?.textContent).toBe('const a = 1')
  })
})

describe('asChild: the host’s element, the kit’s props and behaviour', () => {
  it('CopyButton: both click handlers run, the host’s children stay, data-state follows the copy', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    const mine = vi.fn()
    const ref = createRef<HTMLButtonElement>()
    renderWith(storeWith([]),
      <CopyButton text="hello" ref={ref} asChild>
        <button type="button" className="icon" onClick={mine}>⧉</button>
      </CopyButton>,
    )
    const button = screen.getByRole('button', { name: 'Copy' })
    expect(ref.current).toBe(button)
    expect(button.textContent).toBe('⧉')
    expect(button.className).toBe('icon')
    expect(button.getAttribute('data-weft')).toBe('copy')
    await act(async () => { fireEvent.click(button) })
    expect(mine).toHaveBeenCalledTimes(1)
    expect(writeText).toHaveBeenCalledWith('hello')
    expect(button.getAttribute('data-state')).toBe('copied')
    writeText.mockRestore()
  })

  it('Composer.Input: the host’s field gets the value, and Enter still sends after the host’s onKeyDown', () => {
    const send = vi.fn()
    const keys = vi.fn()
    const ref = createRef<HTMLTextAreaElement>()
    renderWith(storeWith([]),
      <Composer.Root send={send} busy={false}>
        <Composer.Input ref={ref} asChild>
          <textarea className="autosize" onKeyDown={keys} />
        </Composer.Input>
        <Composer.Send />
      </Composer.Root>,
    )
    const field = screen.getByRole('textbox', { name: 'Message' })
    expect(ref.current).toBe(field)
    expect(field.className).toBe('autosize')
    expect(field.getAttribute('data-weft')).toBe('composer-input')
    fireEvent.change(field, { target: { value: 'Hi there' } })
    expect((field as HTMLTextAreaElement).value).toBe('Hi there')
    fireEvent.keyDown(field, { key: 'Enter' })
    expect(keys).toHaveBeenCalledTimes(1)
    expect(send).toHaveBeenCalledWith('Hi there')
  })

  it('Attachments.Button: the host’s button opens the chooser after its own onClick', () => {
    const mine = vi.fn()
    renderWith(storeWith([]),
      <Attachments.Root>
        <Attachments.Button asChild>
          <button type="button" className="clip" onClick={mine}>📎</button>
        </Attachments.Button>
      </Attachments.Root>,
    )
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!
    const opened = vi.fn()
    input.addEventListener('click', (event) => { event.preventDefault(); opened() })
    const button = screen.getByRole('button', { name: 'Attach files' })
    expect(button.className).toBe('clip')
    expect(button.getAttribute('data-weft')).toBe('attach')
    fireEvent.click(button)
    expect(mine).toHaveBeenCalledTimes(1)
    expect(opened).toHaveBeenCalledTimes(1)
  })

  it('Citation: the host’s element gets the link’s props and the marker', () => {
    const mine = vi.fn()
    renderWith(storeWith([]),
      <Citation marker="[1]" source={source} asChild>
        <a className="hover-trigger" onClick={(event) => { event.preventDefault(); mine() }} />
      </Citation>,
    )
    const link = screen.getByRole('link', { name: '[1]' })
    expect(link.className).toBe('hover-trigger')
    expect(link.getAttribute('href')).toBe('https://example.com/a')
    expect(link.getAttribute('data-weft')).toBe('citation')
    fireEvent.click(link)
    expect(mine).toHaveBeenCalledTimes(1)
  })

  it('Trace.Node, TraceHeadline, TurnError and StatusBar draw their content inside the host’s element, state attributes kept', () => {
    const node = createRef<HTMLLIElement>()
    const retry = vi.fn()
    renderWith(storeWith(failedTurn), (
      <>
        <ol>
          <Trace.Node id="n1" ref={node} asChild><HostBox as="li" className="row" /></Trace.Node>
        </ol>
        <TraceHeadline turnId="t1" asChild><h3 className="headline" /></TraceHeadline>
        <TurnError turnId="t1" asChild><HostBox className="callout" role="alert" /></TurnError>
        <StatusBar onRetry={retry} asChild><footer className="status" /></StatusBar>
      </>
    ))
    expect(node.current?.tagName).toBe('LI')
    expect(node.current!.className).toBe('row')
    expect(node.current!.getAttribute('data-weft')).toBe('trace-node')
    expect(node.current!.getAttribute('data-state')).toBe('done')
    expect(node.current!.textContent).toContain('Searched call notes')

    const headline = screen.getByRole('heading', { level: 3 })
    expect(headline.className).toBe('headline')
    expect(headline.getAttribute('data-weft')).toBe('trace-headline')
    expect(headline.getAttribute('data-state')).toBe('error')
    expect(headline.textContent).toBe('2 steps')

    const error = screen.getByRole('alert')
    expect(error.className).toBe('callout')
    expect(error.getAttribute('data-weft')).toBe('turn-error')
    expect(error.getAttribute('data-error-type')).toBe('network')
    expect(error.textContent).toBe('The connection dropped.')

    const status = screen.getByRole('status')
    expect(status.tagName).toBe('FOOTER')
    expect(status.getAttribute('data-weft')).toBe('status-bar')
    expect(status.getAttribute('data-state')).toBe('error')
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(retry).toHaveBeenCalledTimes(1)
  })

  it('a host element with children of its own keeps them', () => {
    renderWith(storeWith(failedTurn), <TurnError turnId="t1" asChild><p data-testid="mine">Please try again.</p></TurnError>)
    expect(screen.getByTestId('mine').textContent).toBe('Please try again.')
    expect(screen.getByTestId('mine').getAttribute('data-weft')).toBe('turn-error')
  })
})
