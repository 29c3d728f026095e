/**
 * The Storybook decorator outside Storybook: its pace control offers the token
 * rhythm, and what the controls ask for but cannot happen (a scenario the protocol
 * lacks, a host protocol with no shipped fixtures, a drop past the last frame, a
 * resume with nothing to resume from) shows as a visible note, never silently.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { builtInProtocols } from 'weft'
import type { AgentFixture } from 'weft/testing'
import { agentArgTypes, agentTurnEnd, withAgent, type AgentArgs, type WithAgentOptions } from 'weft/testing/storybook'
import { SupportChat } from '../../stories/testing/SupportChat'
import { toyProtocol } from '../helpers/toy-protocol'

// A host gives the decorator its own protocol next to the built-ins, as it would in its Storybook preview.
const protocols = [...builtInProtocols, toyProtocol]

const toyFrames = [{ toy: 'say', text: 'One ' }, { toy: 'say', text: 'two ' }, { toy: 'say', text: 'three' }, { toy: 'done' }]
const toyWithIds: AgentFixture = { protocol: 'toy', name: 'counting', title: 'Counts', frames: toyFrames.map((data, i) => ({ id: `t${i + 1}`, data })) }
const toyWithoutIds: AgentFixture = { ...toyWithIds, frames: toyFrames.map((data) => ({ data })) }

/** Renders SupportChat under the decorator, as Storybook would with these args. */
function renderStory(options: WithAgentOptions, args: AgentArgs = {}) {
  const Story = () => <SupportChat initialQuestion="Hi" />
  const Decorated = () => withAgent({ protocols, ...options })(Story, { args: args as Record<string, unknown> })
  const view = render(<Decorated />)
  const stage = view.container.querySelector('[data-weft-agent-stage]')!
  return {
    stage,
    ask: async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Ask' }))
      return agentTurnEnd(view.container)
    },
  }
}

const notes = () => screen.queryAllByRole('note').map((n) => n.textContent)
/** The answer's text, without the error line the host's component adds. */
const answer = () => [...screen.getByTestId('turn-assistant').querySelectorAll('p[data-role="assistant"]')].map((p) => p.textContent).join('')

afterEach(() => cleanup())

describe('the pace control', () => {
  it('offers the token rhythm and the recorded timing besides fixed waits, each with a label', () => {
    const pace = agentArgTypes.agentPace
    expect(pace.control.type).toBe('select')
    expect(pace.options.slice(0, 3)).toEqual(['tokens', 'recorded', 'instant'])
    expect(pace.options.filter((o) => typeof o === 'number')).toEqual([10, 20, 30, 50, 100, 200, 300])
    for (const option of pace.options) expect((pace.control.labels as Record<string, string>)[String(option)]).toBeTruthy()
    expect(pace.control.labels.tokens).toMatch(/^Token rhythm/)
  })

  it('the token rhythm plays the whole answer', async () => {
    const { stage, ask } = renderStory({ protocol: 'vocion', scenario: 'plain' }, { agentPace: 'tokens' })
    expect(stage.getAttribute('data-pace')).toBe('tokens')
    expect(await ask()).toBe('done')
    expect(answer()).toBe('Hello! The build is green and the release is ready.')
    expect(notes()).toEqual([])
  })
})

describe('what cannot play as asked is said', () => {
  it('a scenario the protocol lacks: its plain answer plays, under a note that says so', async () => {
    const { stage, ask } = renderStory({ pace: 'instant' }, { agentProtocol: 'yao', agentScenario: 'sources' })
    expect(stage.getAttribute('data-scenario')).toBe('yao/streaming-text')
    expect(notes()).toEqual([
      'yao has no “sources” scenario, so its plain answer (streaming-text) plays instead. yao has: concurrent-threads, dropped-connection, error-mid-stream, long-answer, one-block, sequential-blocks, simple-text, streaming-text.',
    ])
    expect(await ask()).toBe('done')
    expect(answer()).toBe('Hello World!')
  })

  it('a scenario the protocol has: no note', () => {
    renderStory({ pace: 'instant' }, { agentProtocol: 'ag-ui', agentScenario: 'interrupt' })
    expect(notes()).toEqual([])
  })

  it('a host protocol asked for a shipped scenario: a note, and the request fails with its words', async () => {
    const { stage, ask } = renderStory({ pace: 'instant', protocol: 'toy', scenario: 'plain' })
    expect(stage.getAttribute('data-scenario')).toBe('')
    expect(notes()).toEqual(['weft/testing ships no fixtures for the protocol “toy”, so “plain” cannot play: pass a fixture of your own as the scenario.'])
    expect(await ask()).toBe('error')
    expect(screen.getByRole('alert').textContent).toContain('ships no fixtures for the protocol “toy”')
  })

  it('a drop past the last frame: a note that it never drops', async () => {
    const { ask } = renderStory({ pace: 'instant', protocol: 'vocion', scenario: 'plain' }, { agentDropAt: 60 })
    expect(notes()).toEqual([`The scenario has 6 frames, so the connection never drops at frame 60.`])
    expect(await ask()).toBe('done')
  })

  it('a host fixture without ids that drops: a note, and the turn ends in the network error', async () => {
    const { ask } = renderStory({ pace: 'instant', scenario: toyWithoutIds, dropAt: 2 })
    expect(notes()).toEqual(['The connection drops at frame 2; “toy” has no resume of its own here and its frames have no ids to resume from by Last-Event-ID, so the turn ends in the network error.'])
    expect(await ask()).toBe('error')
    expect(screen.getByRole('alert').textContent).toMatch(/Connection lost/)
    expect(answer()).toBe('One two ')
  })

  it('a host fixture with ids that drops resumes by Last-Event-ID, with no note', async () => {
    const { stage, ask } = renderStory({ pace: 'instant', scenario: toyWithIds, dropAt: 2 })
    expect(notes()).toEqual([])
    expect(await ask()).toBe('done')
    expect(answer()).toBe('One two three')
    expect(stage.getAttribute('data-requests')).toBe('2')
  })
})
