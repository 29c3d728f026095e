import type { StorybookConfig } from '@storybook/react-vite'
import { fileURLToPath } from 'node:url'
import { mergeConfig } from 'vite'
import { mockAgentServer } from '../mock/vite-plugin.js'

const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.@(ts|tsx)'],
  // weft's own addon (the "weft" panel: the inspector of the story being viewed), from the sources;
  // a host's Storybook adds it as `addons: ['weft/storybook-addon']`.
  addons: ['@storybook/addon-vitest', fileURLToPath(new URL('./weft-addon', import.meta.url))],
  // Holds Mock Service Worker's script (`npx msw init .storybook/public`), served at the root.
  staticDirs: ['./public'],
  framework: {
    name: '@storybook/react-vite',
    options: {},
  },
  core: {
    disableTelemetry: true,
    disableWhatsNewNotifications: true,
  },
  // Storybook opens on the Introduction story, not on its own "get started" checklist.
  features: {
    sidebarOnboardingChecklist: false,
    menuOnboardingChecklist: false,
  },
  // Stories talk to the embedded mock agent server at `/mock/...` on Storybook's own origin.
  viteFinal: (viteConfig) => mergeConfig(viteConfig, { plugins: [mockAgentServer()] }),
}

export default config
