// weft's Storybook addon from the sources, as a host's Storybook loads it from `weft/storybook-addon`:
// the "weft" panel, with weft's stylesheet for it.
import * as React from 'react'
import '../../src/components/styles.css'
import { addInspectorPanel } from '../../src/inspector/storybook/register'

// Storybook bundles manager entries with the classic JSX transform (`React.createElement`); weft's sources are
// written for the automatic one, so the built package needs nothing of this, but the sources need `React` in scope.
globalThis.React ??= React

addInspectorPanel()
