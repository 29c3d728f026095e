import { act, fireEvent, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { Attachments, useAttachments } from '../../src/components/attachments'
import { Composer } from '../../src/components/composer'
import { renderWith, storeWith } from './support'

const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'cat.png', { type: 'image/png' })
const pdf = () => new File(['%PDF'], 'terms.pdf', { type: 'application/pdf' })

function transfer(...files: File[]): DataTransfer {
  const data = new DataTransfer()
  for (const file of files) data.items.add(file)
  return data
}

/** Real browser events, carrying a real DataTransfer. */
function drop(target: Element, data: DataTransfer) {
  target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }))
}
function paste(target: Element, data: DataTransfer) {
  target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
}

function SendBox({ send }: { send: (input: { text: string; files: File[] }) => void }) {
  const { take } = useAttachments()
  return (
    <Composer.Root send={(text) => send({ text, files: take() })}>
      <Composer.Input placeholder="Ask" />
      <Composer.Send />
    </Composer.Root>
  )
}

function Harness({ send = () => {}, onError }: { send?: (input: { text: string; files: File[] }) => void; onError?: () => void }) {
  return (
    <Attachments.Root limits={{ accept: ['image/*', 'application/pdf'], maxSize: 1000, maxCount: 2 }} onError={onError}>
      <Attachments.List />
      <Attachments.Button />
      <SendBox send={send} />
    </Attachments.Root>
  )
}

describe('Attachments', () => {
  it('drop and paste add files with previews; remove takes one out', () => {
    renderWith(storeWith([]), <Harness />)
    const root = document.querySelector('[data-weft="attachments"]')!
    act(() => drop(root, transfer(png())))
    act(() => paste(screen.getByPlaceholderText('Ask'), transfer(pdf())))
    const items = document.querySelectorAll('[data-weft="attachment"]')
    expect(Array.from(items, (li) => li.textContent)).toEqual([expect.stringContaining('cat.png'), expect.stringContaining('terms.pdf')])
    expect(screen.getByRole('img', { name: 'cat.png' }).getAttribute('src')).toMatch(/^blob:/)
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Remove cat.png' })))
    expect(document.querySelectorAll('[data-weft="attachment"]')).toHaveLength(1)
  })

  it('the attach button opens a file input limited to the accepted types', () => {
    renderWith(storeWith([]), <Harness />)
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!
    expect(input.accept).toBe('image/*,application/pdf')
    const click = vi.spyOn(input, 'click').mockImplementation(() => {})
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Attach files' })))
    expect(click).toHaveBeenCalledOnce()
    Object.defineProperty(input, 'files', { value: transfer(png()).files, configurable: true })
    act(() => fireEvent.change(input))
    expect(screen.getByText('cat.png')).toBeTruthy()
  })

  it('limits refuse a file with an announced error and keep the others', () => {
    const onError = vi.fn()
    renderWith(storeWith([]), <Harness onError={onError} />)
    const root = document.querySelector('[data-weft="attachments"]')!
    act(() => drop(root, transfer(new File(['x'], 'notes.txt', { type: 'text/plain' }))))
    expect(screen.getByRole('alert').textContent).toContain('notes.txt')
    act(() => drop(root, transfer(new File(['x'.repeat(2000)], 'big.png', { type: 'image/png' }))))
    expect(screen.getByRole('alert').textContent).toContain('larger than 1000 bytes')
    act(() => drop(root, transfer(png(), png(), png())))
    expect(screen.getByRole('alert').textContent).toContain('at most 2 files')
    expect(onError).toHaveBeenCalledTimes(3)
    expect(document.querySelectorAll('[data-weft="attachment"]')).toHaveLength(0)
  })

  it('sending hands the files over and clears the list', () => {
    const send = vi.fn()
    renderWith(storeWith([]), <Harness send={send} />)
    act(() => drop(document.querySelector('[data-weft="attachments"]')!, transfer(png())))
    act(() => fireEvent.change(screen.getByPlaceholderText('Ask'), { target: { value: 'What is this?' } }))
    act(() => fireEvent.click(screen.getByRole('button', { name: /send/i })))
    expect(send).toHaveBeenCalledOnce()
    expect(send.mock.calls[0]![0].text).toBe('What is this?')
    expect(send.mock.calls[0]![0].files.map((f: File) => f.name)).toEqual(['cat.png'])
    expect(document.querySelectorAll('[data-weft="attachment"]')).toHaveLength(0)
  })

  it('files alone can be sent: Send is enabled by an attachment, and the text is empty', () => {
    const send = vi.fn()
    renderWith(storeWith([]), <Harness send={send} />)
    const sendButton = screen.getByRole('button', { name: /send/i }) as HTMLButtonElement
    expect(sendButton.disabled).toBe(true)
    act(() => drop(document.querySelector('[data-weft="attachments"]')!, transfer(pdf())))
    expect(sendButton.disabled).toBe(false)
    act(() => fireEvent.keyDown(screen.getByPlaceholderText('Ask'), { key: 'Enter' }))
    expect(send).toHaveBeenCalledOnce()
    expect(send.mock.calls[0]![0].text).toBe('')
    expect(send.mock.calls[0]![0].files.map((f: File) => f.name)).toEqual(['terms.pdf'])
    expect(sendButton.disabled).toBe(true)
  })
})
