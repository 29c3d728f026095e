import { hostChatCases } from './host-chat.cases'

hostChatCases('Chromium')
