/**
 * The Storybook story of the thread list, rendered through Storybook's portable
 * stories (its own component, args and decorators), so a test can reload the page
 * under it for real. The mock agent is the loopback server's.
 */
import { composeStories } from '@storybook/react'
import { createRoot } from 'react-dom/client'
import '../../src/protocols/index'
import * as stories from '../../stories/Conversations.stories'

const { ThreadListWithMockServer } = composeStories(stories)

createRoot(document.getElementById('root') as HTMLElement).render(<ThreadListWithMockServer />)
