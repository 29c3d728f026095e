/**
 * Exact readings of stored AG-UI messages (`readAgUiMessage`, `toolCallProps`):
 * the weft message each role becomes, the fields kept beside what is read, the
 * tool call props, and the problem each unusable message is reported with.
 */
import { describe, expect, it } from 'vitest'
import { readAgUiMessage, toolCallProps } from '../../../src/protocols/ag-ui/messages'

describe('messages that cannot be read', () => {
  it('a value that is not an object is one problem and no message', () => {
    expect(readAgUiMessage('hello')).toStrictEqual({ parts: [], problems: ['a message must be an object'] })
    expect(readAgUiMessage(null)).toStrictEqual({ parts: [], problems: ['a message must be an object'] })
  })

  it('a message without an id or a role quotes both', () => {
    expect(readAgUiMessage({ id: 'm1', content: 'x' })).toStrictEqual({
      parts: [], problems: ['a message needs an id and a role (got "m1", undefined)'],
    })
    expect(readAgUiMessage({ id: '', role: 'user' })).toStrictEqual({
      parts: [], problems: ['a message needs an id and a role (got "", "user")'],
    })
  })
})

describe('the message of each role', () => {
  it('a user message with text keeps only the content', () => {
    expect(readAgUiMessage({ id: 'u1', role: 'user', content: 'Hi' })).toStrictEqual({
      parts: [{ id: 'u1', role: 'user', type: 'text', props: { content: 'Hi' } }], problems: [],
    })
  })

  it('a user message with parts joins their text and keeps the parts as sent', () => {
    const content = [
      { type: 'text', text: 'first' },
      { type: 'image', text: 'alt text', url: 'https://x/y.png' },
      { type: 'text', text: 5 },
      'loose',
      { type: 'text', text: 'second' },
    ]
    expect(readAgUiMessage({ id: 'u1', role: 'user', content })).toStrictEqual({
      parts: [{ id: 'u1', role: 'user', type: 'text', props: { content: 'first\nsecond', parts: content } }], problems: [],
    })
  })

  it('a user message with no text part has empty content and its parts', () => {
    const content = [{ type: 'image', url: 'https://x/y.png' }]
    expect(readAgUiMessage({ id: 'u1', role: 'user', content }).parts).toStrictEqual([
      { id: 'u1', role: 'user', type: 'text', props: { content: '', parts: content } },
    ])
  })

  it('name, encryptedValue and metadata are kept when they have the right type', () => {
    expect(readAgUiMessage({ id: 'u1', role: 'user', content: 'Hi', name: 'ann', encryptedValue: 'enc', metadata: { a: 1 } }).parts).toStrictEqual([
      { id: 'u1', role: 'user', type: 'text', props: { content: 'Hi', name: 'ann', encryptedValue: 'enc', metadata: { a: 1 } } },
    ])
    expect(readAgUiMessage({ id: 'u1', role: 'user', content: 'Hi', name: 3, encryptedValue: 4, metadata: 'm' }).parts).toStrictEqual([
      { id: 'u1', role: 'user', type: 'text', props: { content: 'Hi' } },
    ])
  })

  it('fields weft does not read are kept in extra, except those the caller reads itself', () => {
    expect(readAgUiMessage({ id: 'u1', role: 'user', content: 'Hi', createdAt: 'today' }).parts).toStrictEqual([
      { id: 'u1', role: 'user', type: 'text', props: { content: 'Hi', extra: { createdAt: 'today' } } },
    ])
    expect(readAgUiMessage({ id: 'u1', role: 'user', content: 'Hi', seq: 3, createdAt: 'today' }, new Set(['seq'])).parts).toStrictEqual([
      { id: 'u1', role: 'user', type: 'text', props: { content: 'Hi', extra: { createdAt: 'today' } } },
    ])
    expect(readAgUiMessage({ id: 'u1', role: 'user', content: 'Hi', seq: 3 }, new Set(['seq'])).parts).toStrictEqual([
      { id: 'u1', role: 'user', type: 'text', props: { content: 'Hi' } },
    ])
  })

  it('a sub-agent run id places the message in that thread', () => {
    expect(readAgUiMessage({ id: 'u1', role: 'user', content: 'Hi', subagentRunId: 'sub' }).parts).toStrictEqual([
      { id: 'u1', role: 'user', type: 'text', props: { content: 'Hi' }, threadId: 'sub' },
    ])
  })

  it('a system message is system text; a developer message is too, and says so', () => {
    expect(readAgUiMessage({ id: 's1', role: 'system', content: 'Be brief' })).toStrictEqual({
      parts: [{ id: 's1', role: 'system', type: 'text', props: { content: 'Be brief' } }], problems: [],
    })
    expect(readAgUiMessage({ id: 'd1', role: 'developer', content: 'Be kind', name: 'ops' })).toStrictEqual({
      parts: [{ id: 'd1', role: 'system', type: 'text', props: { content: 'Be kind', sourceRole: 'developer', name: 'ops' } }], problems: [],
    })
  })

  it('a reasoning message is assistant reasoning', () => {
    expect(readAgUiMessage({ id: 'r1', role: 'reasoning', content: 'Thinking' })).toStrictEqual({
      parts: [{ id: 'r1', role: 'assistant', type: 'reasoning', props: { content: 'Thinking' } }], problems: [],
    })
  })

  it('an activity message keeps its type and content, with defaults for both', () => {
    expect(readAgUiMessage({ id: 'x1', role: 'activity', activityType: 'plan', content: { steps: [1] } })).toStrictEqual({
      parts: [{ id: 'x1', role: 'assistant', type: 'activity', props: { activityType: 'plan', content: { steps: [1] } } }], problems: [],
    })
    expect(readAgUiMessage({ id: 'x1', role: 'activity', activityType: '', subagentRunId: 'sub' })).toStrictEqual({
      parts: [{ id: 'x1', role: 'assistant', type: 'activity', props: { activityType: 'activity', content: {} }, threadId: 'sub' }], problems: [],
    })
  })

  it('an unknown role is kept as assistant text with its role, and reported', () => {
    expect(readAgUiMessage({ id: 'z1', role: 'critic', content: 'Meh' })).toStrictEqual({
      parts: [{ id: 'z1', role: 'assistant', type: 'text', props: { content: 'Meh', sourceRole: 'critic' } }],
      problems: ['unknown message role "critic"; kept as assistant text'],
    })
  })
})

describe('assistant messages and their tool calls', () => {
  it('an assistant message without content or calls is still an empty text message', () => {
    expect(readAgUiMessage({ id: 'a1', role: 'assistant' })).toStrictEqual({
      parts: [{ id: 'a1', role: 'assistant', type: 'text', props: { content: '' } }], problems: [],
    })
  })

  it('the text of content parts is joined', () => {
    expect(readAgUiMessage({ id: 'a1', role: 'assistant', content: [{ type: 'text', text: 'x' }, { type: 'text', text: 'y' }] }).parts).toStrictEqual([
      { id: 'a1', role: 'assistant', type: 'text', props: { content: 'x\ny' } },
    ])
  })

  it('a message with only tool calls has no text message; each call is a tool message under its id', () => {
    expect(readAgUiMessage({
      id: 'a1', role: 'assistant', subagentRunId: 'sub',
      toolCalls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } }],
    })).toStrictEqual({
      parts: [{
        id: 'c1', role: 'assistant', type: 'tool', threadId: 'sub',
        props: { toolCallId: 'c1', name: 'search', state: 'input-available', inputText: '{"q":"x"}', input: { q: 'x' }, parentMessageId: 'a1' },
      }],
      problems: [],
    })
  })

  it('text and snake-case tool calls both come through; a call without an id is reported', () => {
    expect(readAgUiMessage({
      id: 'a1', role: 'assistant', content: 'Checking',
      tool_calls: [{ type: 'function', function: { name: 'lost' } }, 'nope', { id: 'c2', function: { name: 'read' } }],
    })).toStrictEqual({
      parts: [
        { id: 'a1', role: 'assistant', type: 'text', props: { content: 'Checking' } },
        { id: 'c2', role: 'assistant', type: 'tool', props: { toolCallId: 'c2', name: 'read', state: 'input-available', parentMessageId: 'a1' } },
      ],
      problems: ['a tool call of message "a1" has no id', 'a tool call of message "a1" has no id'],
    })
  })
})

describe('tool call props', () => {
  it('a call without an id has no props', () => {
    expect(toolCallProps({ function: { name: 'search' } })).toBeUndefined()
    expect(toolCallProps({ id: '', function: { name: 'search' } })).toBeUndefined()
  })

  it('a call without a name is named tool, and without arguments has no input', () => {
    expect(toolCallProps({ id: 'c1' })).toStrictEqual({ toolCallId: 'c1', name: 'tool', state: 'input-available' })
  })

  it('empty or blank arguments read as no arguments', () => {
    expect(toolCallProps({ id: 'c1', function: { name: 'f', arguments: '' } })).toStrictEqual({
      toolCallId: 'c1', name: 'f', state: 'input-available', inputText: '', input: {},
    })
    expect(toolCallProps({ id: 'c1', function: { name: 'f', arguments: '  ' } })).toStrictEqual({
      toolCallId: 'c1', name: 'f', state: 'input-available', inputText: '  ', input: {},
    })
  })

  it('arguments that are not JSON keep their text and have no input', () => {
    expect(toolCallProps({ id: 'c1', function: { name: 'f', arguments: '{"q":' } })).toStrictEqual({
      toolCallId: 'c1', name: 'f', state: 'input-available', inputText: '{"q":',
    })
  })

  it('arguments sent as a value are the input, and their JSON the text', () => {
    expect(toolCallProps({ id: 'c1', name: 'f', arguments: { q: 'x' } })).toStrictEqual({
      toolCallId: 'c1', name: 'f', state: 'input-available', input: { q: 'x' }, inputText: '{"q":"x"}',
    })
  })

  it('keeps the parent message, the encrypted value and the call fields weft does not read', () => {
    expect(toolCallProps({ id: 'c1', function: { name: 'f' }, encryptedValue: 'enc', metadata: { m: 1 } }, 'a1')).toStrictEqual({
      toolCallId: 'c1', name: 'f', state: 'input-available', parentMessageId: 'a1', encryptedValue: 'enc', extra: { metadata: { m: 1 } },
    })
    expect(toolCallProps({ id: 'c1', function: { name: 'f' }, encryptedValue: 7 }, '')).toStrictEqual({
      toolCallId: 'c1', name: 'f', state: 'input-available',
    })
  })
})

describe('tool results', () => {
  it('a result completes the tool message of its call and keeps its own id', () => {
    expect(readAgUiMessage({ id: 't1', role: 'tool', toolCallId: 'c1', content: 'done' })).toStrictEqual({
      parts: [{
        id: 'c1', role: 'assistant', type: 'tool', isResult: true,
        props: { resultContent: 'done', output: 'done', state: 'output-available', toolCallId: 'c1', resultMessageId: 't1' },
      }],
      problems: [],
    })
  })

  it('the tool name comes from toolName, tool_name or name, in that order', () => {
    const named = (fields: Record<string, unknown>) => readAgUiMessage({ id: 't1', role: 'tool', toolCallId: 'c1', ...fields }).parts[0]?.props.name
    expect(named({ toolName: 'a' })).toBe('a')
    expect(named({ tool_name: 'b' })).toBe('b')
    expect(named({ name: 'c' })).toBe('c')
    expect(named({ toolName: 'a', tool_name: 'b', name: 'c' })).toBe('a')
    expect(named({ tool_name: 'b', name: 'c' })).toBe('b')
    expect(named({})).toBeUndefined()
  })

  it('a result without a call id is kept under its own id and reported', () => {
    expect(readAgUiMessage({ id: 't1', role: 'tool', tool_name: 'search', content: 'ok', subagentRunId: 'sub', note: 'n' })).toStrictEqual({
      parts: [{
        id: 't1', role: 'assistant', type: 'tool', isResult: true, threadId: 'sub',
        props: {
          resultContent: 'ok', output: 'ok', state: 'output-available', toolCallId: 't1', resultMessageId: 't1', name: 'search',
          resultExtra: { note: 'n' },
        },
      }],
      problems: ['the tool message "t1" names no toolCallId; kept under its own id'],
    })
  })

  it('a refused navigation action is reported with its reason', () => {
    const read = readAgUiMessage({
      id: 't1', role: 'tool', tool_call_id: 'c1', content: 'ok', ui_schema: { actions: [{ type: 'navigation', path: '/todo/:id' }] },
    })
    expect(read.problems).toStrictEqual(['navigation action refused: the path "/todo/:id" has an unfilled ":id" segment'])
    expect(read.parts).toStrictEqual([{
      id: 'c1', role: 'assistant', type: 'tool', isResult: true,
      props: {
        resultContent: 'ok', output: 'ok', uiSchema: { actions: [] }, actions: [], state: 'output-available',
        toolCallId: 'c1', resultMessageId: 't1',
      },
    }])
  })
})
