/**
 * Every string of the thread list, the branch picker and the attachments comes
 * from `labels`: an override given to `LabelsProvider` reaches each.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Attachments } from '../../src/components/attachments'
import { BranchPicker } from '../../src/components/branch-picker'
import { LabelsProvider, type WeftLabels } from '../../src/components/labels'
import { ThreadList } from '../../src/components/thread-list'
import { createConversations, memoryConversations, type Conversations } from '../../src/core/conversations/index'
import { weftError } from '../../src/core/model/errors'
import { ConversationsProvider } from '../../src/umbrella/providers'
import { renderWith, storeWith } from './support'

const lists: Conversations[] = []
afterEach(async () => {
  cleanup()
  for (const conversations of lists.splice(0)) await conversations.dispose()
})

const zh: Partial<WeftLabels> = {
  conversations: '对话列表', newChat: '新对话', answering: '回答中', cannotBeRead: '无法读取', changedInAnotherTab: '已在其他标签页中更改',
  loadTheirs: '载入对方的', keepMine: '保留我的', rename: '重命名', renameConversation: (t) => `重命名 ${t}`, delete: '删除',
  deleteConversation: (t) => `删除 ${t}`, deletedConversation: (t) => `已删除“${t}”。`, undo: '撤销', conversationTitle: '对话标题',
  previousVersion: '上一个版本', nextVersion: '下一个版本', versionOf: (n, of) => `第 ${n} 个版本，共 ${of} 个`,
  attachFiles: '添加文件', removeFile: (name) => `移除 ${name}`,
}

/** Four conversations, shown as answering, unreadable, in conflict and idle. */
async function fourStates(): Promise<Conversations> {
  const conversations = createConversations({ storage: memoryConversations(), selection: false, saveOnHide: false })
  lists.push(conversations)
  await conversations.ready()
  for (const title of ['Idle', 'Conflicted', 'Broken', 'Streaming']) conversations.create({ title })
  const status = { Streaming: 'streaming', Broken: 'error', Conflicted: 'conflict' } as const
  // The statuses a background stream, a damaged record and another tab's save would give.
  conversations.state.setState((s) => ({
    list: s.list.map((c) => {
      const next = status[c.title as keyof typeof status]
      return next ? { ...c, status: next, error: next === 'error' ? weftError('protocol', 'damaged') : undefined } : c
    }),
  }))
  return conversations
}

describe('labels reach every string', () => {
  it('ThreadList: the list, new chat, statuses, conflict buttons, rename, delete and undo', async () => {
    const conversations = await fourStates()
    render(
      <LabelsProvider labels={zh}>
        <ConversationsProvider conversations={conversations}><ThreadList /></ConversationsProvider>
      </LabelsProvider>,
    )
    const list = await screen.findByRole('listbox', { name: '对话列表' })
    expect(screen.getByRole('navigation', { name: '对话列表' })).toBeTruthy()
    expect(screen.getByRole('button', { name: '新对话' })).toBeTruthy()
    const row = (title: string) => within(list).getByRole('option', { name: new RegExp(title) })
    expect(within(row('Streaming')).getByRole('img', { name: '回答中' })).toBeTruthy()
    expect(within(row('Broken')).getByText('无法读取')).toBeTruthy()
    const conflict = within(row('Conflicted')).getByRole('alert')
    expect(conflict.textContent).toContain('已在其他标签页中更改')
    expect(within(conflict).getByRole('button', { name: '载入对方的' })).toBeTruthy()
    expect(within(conflict).getByRole('button', { name: '保留我的' })).toBeTruthy()
    expect(within(row('Idle')).getByRole('button', { name: '重命名 Idle' }).textContent).toBe('重命名')

    fireEvent.click(within(row('Idle')).getByRole('button', { name: '重命名 Idle' }))
    const input = await screen.findByRole('textbox', { name: '对话标题' })
    fireEvent.keyDown(input, { key: 'Escape' })

    const remove = within(row('Idle')).getByRole('button', { name: '删除 Idle' })
    expect(remove.textContent).toBe('删除')
    await act(async () => { fireEvent.click(remove) })
    const undo = await screen.findByRole('status')
    expect(undo.textContent).toContain('已删除“Idle”。')
    expect(within(undo).getByRole('button', { name: '撤销' })).toBeTruthy()
    await waitFor(() => expect(within(list).queryByRole('option', { name: /Idle/ })).toBeNull())
  })

  it('BranchPicker: the group’s name and both buttons', () => {
    const store = storeWith([
      { op: 'turn.open', turnId: 'u1', role: 'user' },
      { op: 'turn.open', turnId: 'a1', role: 'assistant' },
      { op: 'turn.open', turnId: 'a1b', role: 'assistant', parentId: 'u1' },
    ])
    renderWith(store, <LabelsProvider labels={zh}><BranchPicker turnId="a1b" /></LabelsProvider>)
    const group = screen.getByRole('group', { name: '第 2 个版本，共 2 个' })
    expect(within(group).getByRole('button', { name: '上一个版本' })).toBeTruthy()
    expect(within(group).getByRole('button', { name: '下一个版本' })).toBeTruthy()
  })

  it('Attachments: the attach button and each remove button', () => {
    renderWith(storeWith([]),
      <LabelsProvider labels={zh}>
        <Attachments.Root data-testid="root">
          <Attachments.List />
          <Attachments.Button />
        </Attachments.Root>
      </LabelsProvider>,
    )
    expect(screen.getByRole('button', { name: '添加文件' }).textContent).toBe('添加文件')
    const data = new DataTransfer()
    data.items.add(new File(['%PDF'], 'terms.pdf', { type: 'application/pdf' }))
    act(() => { screen.getByTestId('root').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true })) })
    expect(screen.getByRole('button', { name: '移除 terms.pdf' })).toBeTruthy()
  })
})
