/**
 * Storybook opens on the introduction: the manager selects the first story of
 * the sorted index, so the stories are indexed as Storybook indexes them (its
 * CSF parser) and sorted by the preview's own order; and Storybook's "get
 * started" checklist is off.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig, loadCsf } from 'storybook/internal/csf-tools'
import { sortStoriesV7 } from 'storybook/internal/preview-api'
import { describe, expect, it } from 'vitest'
import config from '../../../.storybook/main'

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..')

/** Every story of `stories/`, as Storybook's index has it. */
function storyIndex() {
  return readdirSync(join(root, 'stories'))
    .filter((file) => file.endsWith('.stories.tsx'))
    .flatMap((file) => {
      const csf = loadCsf(readFileSync(join(root, 'stories', file), 'utf8'), { fileName: file, makeTitle: (title: string) => title }).parse()
      return csf.stories.map((story) => ({ type: 'story' as const, subtype: 'story' as const, id: story.id, name: story.name ?? story.id, title: csf.meta.title!, importPath: `./stories/${file}` }))
    })
}

/** The sort order as Storybook reads it from the preview: statically, from its source. */
function storySort() {
  const preview = loadConfig(readFileSync(join(root, '.storybook/preview.ts'), 'utf8'), 'preview.ts').parse()
  return preview.getSafeFieldValue(['parameters', 'options', 'storySort'])
}

describe('Storybook', () => {
  it('opens on the introduction: the first story once sorted', () => {
    const index = storyIndex()
    expect(index.length).toBeGreaterThan(20)
    const sorted = sortStoriesV7(index, storySort(), [])
    expect(sorted[0]!.id).toBe('introduction--welcome')
    // The rest keep their groups: components, then the protocols, the internal ones last.
    expect(sorted[1]!.title.startsWith('Components/')).toBe(true)
    expect(sorted.at(-1)!.title.startsWith('Internal/')).toBe(true)
  })

  it('shows no "get started" checklist, in the sidebar or the menu', () => {
    expect(config.features).toMatchObject({ sidebarOnboardingChecklist: false, menuOnboardingChecklist: false })
  })
})
