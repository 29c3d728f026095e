import type { Meta, StoryObj } from '@storybook/react-vite'
import type { ReactNode } from 'react'
import { expect, within } from 'storybook/test'
import { Attachments, Chat, Composer, LabelsProvider, MarkdownSettingsProvider, WeftCallbacksProvider, type WeftLabels } from '../src/components'
import type { Op } from '../src/core/model/ops'
import { StaticAgent } from './support/demo'

/**
 * The conversation of the visual comparison with assistant-ui, in the `Chat`
 * layout: light, dark, right-to-left and in Chinese, and each theme at 375, 768
 * and 1280 px (the toolbar's viewports `phone`, `tablet`, `laptop`).
 */
const meta = {
  title: 'Components/Showcase',
  parameters: { layout: 'fullscreen' },
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

const answer = `## Weather in Paris

It is **18 °C** with light rain this afternoon.

- Wrap \`fetch\` in a retry with backoff
- Cache the forecast for **10 minutes**

| City | Temp (°C) | Rain |
| :--- | ---: | :--- |
| Paris | 18 | light |
| Lyon | 21 | none |

\`\`\`ts
const res = await fetch(\`/api/weather?city=\${city}\`)
const forecast = await res.json()
\`\`\`
`

function conversation(texts: { q1: string; a1: string; q2: string; a2: string; tool: string }): Op[] {
  return [
    { op: 'turn.open', turnId: 'u1', role: 'user' },
    { op: 'message.put', turnId: 'u1', messageId: 'u1/m', role: 'user', type: 'text', status: 'done', props: { content: texts.q1 } },
    { op: 'turn.finish', turnId: 'u1', status: 'done' },
    { op: 'turn.open', turnId: 'a1', role: 'assistant' },
    { op: 'block.open', turnId: 'a1', blockId: 'a1/s1', kind: 'step', label: 'Step 1' },
    {
      op: 'message.put', turnId: 'a1', messageId: 'a1/tool', blockId: 'a1/s1', type: 'tool', status: 'done',
      props: { toolCallId: 'c1', name: texts.tool, state: 'output-available', input: { city: 'Paris', units: 'metric' }, output: { tempC: 18, rain: 'light', wind: 'calm' }, durationMs: 412 },
    },
    { op: 'message.put', turnId: 'a1', messageId: 'a1/text', blockId: 'a1/s1', type: 'text', status: 'done', props: { content: texts.a1 } },
    { op: 'block.close', blockId: 'a1/s1', status: 'done' },
    { op: 'turn.finish', turnId: 'a1', status: 'done' },
    { op: 'turn.open', turnId: 'u2', role: 'user' },
    { op: 'message.put', turnId: 'u2', messageId: 'u2/m', role: 'user', type: 'text', status: 'done', props: { content: texts.q2 } },
    { op: 'turn.finish', turnId: 'u2', status: 'done' },
    { op: 'turn.open', turnId: 'a2', role: 'assistant' },
    { op: 'source.add', turnId: 'a2', source: { id: 's1', kind: 'url', url: 'https://meteofrance.com/previsions-meteo-france/paris/75000', title: 'Météo-France — Paris', citationIndex: 1 } },
    { op: 'message.delta', turnId: 'a2', messageId: 'a2/text', type: 'text', action: 'append', path: 'content', value: texts.a2 },
    { op: 'stream.status', status: 'streaming' },
  ]
}

const english = conversation({
  q1: 'What is the weather in Paris, and how should I fetch it in my app?',
  a1: answer,
  q2: 'Will it rain tomorrow?',
  a2: 'Tomorrow looks drier: Météo-France expects **no rain** until the evening [1], with a high of 20 °C and',
  tool: 'get_weather',
})

function Frame({ ops, theme, dir, children }: { ops: Op[]; theme?: 'light' | 'dark'; dir?: 'rtl'; children?: ReactNode }) {
  return (
    <div data-theme={theme} dir={dir} style={{ height: '100vh', background: 'var(--weft-bg)' }}>
      <StaticAgent ops={ops}>
        <MarkdownSettingsProvider highlight={false}>
          <WeftCallbacksProvider onFeedback={() => undefined}>
            {children ?? <Chat footer={<Composer send={() => undefined} stop={() => undefined} placeholder="Send a message…" />} />}
          </WeftCallbacksProvider>
        </MarkdownSettingsProvider>
      </StaticAgent>
    </div>
  )
}

/** Light: markdown, a folded tool call, flat steps, a streaming answer with a linked citation. */
export const Light: Story = {
  render: () => <Frame ops={english} theme="light" />,
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('[data-weft="markdown"] h2')?.textContent).toBe('Weather in Paris')
    await expect(canvasElement.querySelector<HTMLDetailsElement>('[data-weft="tool"]')?.open).toBe(false)
    await expect(within(canvasElement).getByRole('button', { name: 'Stop' })).toBeTruthy()
  },
}

/** Dark, from `data-theme="dark"` (or the system's `prefers-color-scheme`). */
export const Dark: Story = {
  render: () => <Frame ops={english} theme="dark" />,
  play: async ({ canvasElement }) => {
    const chat = canvasElement.querySelector<HTMLElement>('[data-weft="chat"]')!
    // The dark background's red channel is below 40.
    const red = Number(getComputedStyle(chat).backgroundColor.match(/\d+/)![0])
    await expect(red).toBeLessThan(40)
  },
}

type Width = 'phone' | 'tablet' | 'laptop'
const px: Record<Width, number> = { phone: 375, tablet: 768, laptop: 1280 }

/** The conversation at one of the kit's widths: the chat fills it and nothing runs past its edge. */
function atWidth(theme: 'light' | 'dark', width: Width): Story {
  return {
    globals: { viewport: { value: width, isRotated: false } },
    render: () => <Frame ops={english} theme={theme} />,
    play: async ({ canvasElement }) => {
      await expect(window.innerWidth).toBe(px[width])
      const chat = canvasElement.querySelector<HTMLElement>('[data-weft="chat"]')!
      await expect(Math.round(chat.getBoundingClientRect().width)).toBe(px[width])
      await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(px[width])
      // The user's bubble keeps a gutter on the start side, at 375 too.
      const user = canvasElement.querySelector<HTMLElement>('[data-weft="turn"][data-role="user"]')!
      await expect(user.getBoundingClientRect().width).toBeLessThan(chat.getBoundingClientRect().width * 0.9)
    },
  }
}

export const LightPhone: Story = atWidth('light', 'phone')
export const LightTablet: Story = atWidth('light', 'tablet')
export const LightLaptop: Story = atWidth('light', 'laptop')
export const DarkPhone: Story = atWidth('dark', 'phone')
export const DarkTablet: Story = atWidth('dark', 'tablet')
export const DarkLaptop: Story = atWidth('dark', 'laptop')

/** Right to left: logical properties put the user bubble and the tool chevron on the other side. */
export const RightToLeft: Story = {
  render: () => (
    <Frame
      dir="rtl"
      ops={conversation({
        q1: 'ما حالة الطقس في باريس؟',
        a1: '## الطقس في باريس\n\nالحرارة **18 درجة** مع أمطار خفيفة.\n\n- خذ مظلة\n- الرياح هادئة',
        q2: 'هل ستمطر غدًا؟',
        a2: 'غدًا أكثر جفافًا: لا أمطار حتى المساء [1]، والعظمى 20 درجة و',
        tool: 'get_weather',
      })}
    />
  ),
  play: async ({ canvasElement }) => {
    const user = canvasElement.querySelector<HTMLElement>('[data-weft="turn"][data-role="user"]')!
    const column = canvasElement.querySelector<HTMLElement>('[data-weft="transcript"]')!
    // In RTL the person's bubble sits at the left edge of the column.
    await expect(Math.abs(user.getBoundingClientRect().left - column.getBoundingClientRect().left)).toBeLessThan(2)
  },
}

/** Every label, so a key added to `WeftLabels` without a Chinese value fails the typecheck. */
const zhCN: WeftLabels = {
  conversation: '对话', lane: '分支',
  laneStatus: (s) => (s === 'open' ? '运行中' : s === 'error' ? '失败' : s === 'done' ? '完成' : ''), laneMessages: (n) => `${n} 条消息`,
  laneFocusShort: '聚焦', laneFocus: (name) => `聚焦 ${name}`, laneHideShort: '隐藏', laneHide: (name) => `隐藏 ${name}`,
  laneFocused: (name) => `仅显示 ${name}`, laneShowAll: '显示全部', laneRestore: (n) => `显示 ${n} 个隐藏的分支`,
  workTimeline: '工作时间线', traceDetails: '详情', working: '处理中…',
  steps: (n) => `${n} 个步骤`, sources: '来源', sourceCount: (n) => `${n} 个来源`, suggestions: '推荐的后续问题',
  message: '消息', composerPlaceholder: '发送消息…',
  queuedMessages: '排队的消息', queueWaiting: '回答结束后发送', queueHeld: '尚未发送', queuedFiles: (n) => `+ ${n} 个文件`, sendNow: '立即发送', removeQueued: '移除', save: '保存', cancelEdit: '取消',
  send: '发送', stop: '停止', copy: '复制', copied: '已复制', copyCode: '复制代码', copyMarkdown: '复制为 Markdown',
  goodAnswer: '有帮助', badAnswer: '没有帮助', regenerate: '重新生成', edit: '编辑', messageActions: '消息操作', jumpToLatest: '跳到最新',
  thinking: '思考中…', reasoning: '推理过程', tool: '工具', toolGroup: (n, running) => (running ? `正在使用 ${n} 个工具…` : `使用了 ${n} 个工具`), toolInput: '输入', toolOutput: '输出', showMore: '显示更多', showLess: '收起', rawJson: 'JSON',
  toolStates: { 'input-streaming': '准备中', 'input-available': '运行中', 'approval-requested': '等待批准', 'approval-responded': '已答复', 'output-available': '完成', 'output-error': '失败', 'output-denied': '已拒绝', called: '已调用' },
  preliminary: '初步结果', approvalNeeded: '需要批准', approvalAnswered: '批准', approvalQuestion: '智能体正在等待你的批准。', approve: '批准', reject: '拒绝',
  reason: '理由（可选）', submit: '提交', answer: '你的回答', gateDetails: '详情',
  gateStates: { approved: '已批准', rejected: '已拒绝', answered: '已回答', expired: '已过期', cancelled: '已取消' },
  statuses: { idle: '就绪', connecting: '连接中…', streaming: '回答中…', reconnecting: '重新连接中…', done: '完成', error: '出错了', aborted: '已停止' },
  retry: '重试', interrupted: '已中断', notSaved: (e) => (e.code === 'conversation_quota_exceeded' ? '未保存：存储空间已满' : '未保存'), reloadSaved: '重新载入已保存的', export: '导出', exportConversation: (t) => `将 ${t} 导出为 JSON`, conversationNotShown: (t) => `无法显示对话“${t}”。`, somethingWentWrong: '出错了。', cannotShow: '此部分无法显示。', image: '图片', file: '文件', linkNotShown: '（链接未显示）',
  recommendedAction: '推荐操作', confidence: (p) => `置信度 ${p}%`, stateInspector: '状态检查器',
  duration: (ms) => (ms < 1000 ? `${Math.round(ms)} 毫秒` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} 秒`),
  usageFigures: { input: '输入', output: '输出', tokens: '令牌', reasoning: '推理', cached: '缓存', firstToken: '首个令牌', total: '用时', speed: '速度', cost: '费用' },
  tokenCount: (n) => new Intl.NumberFormat('zh-CN').format(n),
  tokensPerSecond: (rate) => `每秒 ${new Intl.NumberFormat('zh-CN', { maximumFractionDigits: rate < 10 ? 1 : 0 }).format(rate)} 个令牌`,
  cost: (amount, currency) => new Intl.NumberFormat('zh-CN', { style: 'currency', currency, maximumSignificantDigits: 2 }).format(amount),
  // The refusal's own message is English; its code and retryable say which it is.
  sendRefused: (refusal) => (refusal.retryable ? '此对话仍在加载，显示后再发送。' : '无法向此对话发送消息。'),
  attachFiles: '添加文件', removeFile: (name) => `移除 ${name}`,
  fileSize: (bytes) => (bytes < 1024 ? `${bytes} 字节` : bytes < 1048576 ? `${Math.round(bytes / 102.4) / 10} KB` : `${Math.round(bytes / 104857.6) / 10} MB`),
  fileRefused: (error) => ({ attachment_count: '附加的文件太多。', attachment_size: '文件太大，无法附加。', attachment_type: '无法附加此类型的文件。' })[error.code ?? ''] ?? '无法附加此文件。',
  previousVersion: '上一个版本', nextVersion: '下一个版本', versionOf: (n, of) => `第 ${n} 个版本，共 ${of} 个`,
  dictate: '语音输入', stopDictation: '停止语音输入', listening: '正在聆听…',
  dictationError: (error) => ({ 'not-allowed': '麦克风权限被拒绝', 'no-speech': '没有听到语音', 'audio-capture': '未找到麦克风', network: '无法连接语音服务', unsupported: '此浏览器不支持语音输入', language: '语音输入不支持此语言' } as Record<string, string>)[error.code] ?? '语音输入失败',
  readAloud: '朗读', stopReading: '停止朗读',
  readAloudError: (error) => ({ 'not-allowed': '浏览器不允许朗读', network: '无法连接语音服务', unsupported: '此浏览器不支持朗读', language: '没有此语言的语音' } as Record<string, string>)[error.code] ?? '无法朗读',
  conversations: '对话列表', newChat: '新对话', untitled: '新对话', answering: '回答中', cannotBeRead: '无法读取', changedInAnotherTab: '已在其他标签页中更改',
  loadTheirs: '载入对方的版本', keepMine: '保留我的版本', rename: '重命名', renameConversation: (t) => `重命名 ${t}`, delete: '删除',
  deleteConversation: (t) => `删除 ${t}`, deletedConversation: (t) => `已删除“${t}”。`, undo: '撤销', conversationTitle: '对话标题',
}

/** Simplified Chinese: every visible string from a `labels` object, the attach button's too. */
export const ChineseLabels: Story = {
  render: () => (
    <LabelsProvider labels={zhCN}>
      <Frame
        ops={conversation({
          q1: '巴黎天气怎么样？',
          a1: '## 巴黎天气\n\n今天下午 **18 °C**，有小雨。\n\n| 城市 | 气温 | 降雨 |\n| :--- | ---: | :--- |\n| 巴黎 | 18 | 小雨 |\n| 里昂 | 21 | 无 |',
          q2: '明天会下雨吗？',
          a2: '明天较干燥：傍晚前**无降雨** [1]，最高气温 20 °C，',
          tool: 'get_weather',
        })}
      >
        <Chat
          footer={(
            <Attachments.Root>
              <Attachments.List />
              <Attachments.Button />
              <Composer send={() => undefined} stop={() => undefined} placeholder="发送消息…" />
            </Attachments.Root>
          )}
        />
      </Frame>
    </LabelsProvider>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.getByRole('button', { name: '停止' })).toBeTruthy()
    await expect(canvas.getByRole('button', { name: '添加文件' })).toBeTruthy()
    await expect(canvas.getByRole('log', { name: '对话' })).toBeTruthy()
    await expect(canvasElement.querySelector('[data-weft="tool-state"]')?.textContent).toBe('完成')
  },
}

/** 1,000 earlier turns, then the conversation above: the transcript is virtualized (only the turns near the viewport are in the DOM). */
const long: Op[] = [
  ...Array.from({ length: 1000 }, (_, i): Op[] => {
    const role = i % 2 === 0 ? 'user' : 'assistant'
    const content = role === 'user' ? `Earlier question ${i}` : `Earlier answer ${i}, with **markdown** and \`code\`.\n\n- one point\n- another point`
    return [
      { op: 'turn.open', turnId: `old${i}`, role },
      { op: 'message.put', turnId: `old${i}`, messageId: `old${i}/m`, role, type: 'text', status: 'done', props: { content } },
      { op: 'turn.finish', turnId: `old${i}`, status: 'done' },
    ]
  }).flat(),
  ...english,
]

export const ThousandTurns: Story = {
  render: () => <Frame ops={long} theme="light" />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await canvas.findByText(/Tomorrow looks drier/)
    await expect(canvasElement.querySelector('[data-weft="transcript"]')?.getAttribute('data-state')).toBe('virtual')
    await expect(canvasElement.querySelectorAll('[data-weft="turn"]').length).toBeLessThan(80)
  },
}
