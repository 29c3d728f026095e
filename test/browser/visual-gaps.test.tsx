/**
 * The last gaps of the side-by-side with assistant-ui, as behaviour: the
 * composer's default placeholder, a gate's title after its answer, a plain
 * answer's headline, a held call's input shown once, grouped tool calls, data
 * parts, source chips and the narrow thread list.
 */
import '../../src/components/styles.css'
import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Composer } from '../../src/components/composer'
import { LabelsProvider } from '../../src/components/labels'
import { renderWith, storeWith } from './support'

describe('the composer\'s placeholder', () => {
  it('is "Send a message…" by default, a label a host translates, and the host\'s own when given (even empty)', () => {
    const store = storeWith([])
    const box = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement
    const { unmount } = renderWith(store, <Composer send={() => undefined} />)
    expect(box().placeholder).toBe('Send a message…')
    unmount()
    const translated = renderWith(store, <LabelsProvider labels={{ composerPlaceholder: 'Écrivez un message…' }}><Composer send={() => undefined} /></LabelsProvider>)
    expect(box().placeholder).toBe('Écrivez un message…')
    translated.unmount()
    const own = renderWith(store, <Composer send={() => undefined} placeholder="Ask anything" />)
    expect(box().placeholder).toBe('Ask anything')
    own.unmount()
    renderWith(store, <Composer.Root send={() => undefined}><Composer.Input placeholder="" /></Composer.Root>)
    expect(box().placeholder).toBe('')
  })
})
