/**
 * weft/storybook-addon/manager: the manager entry of weft's Storybook addon,
 * the "weft" panel and weft's stylesheet for it (a host's Storybook bundles both).
 */
import 'weft/styles.css'
import { addInspectorPanel } from './register'

addInspectorPanel()

// A module with no exports: its declaration says so, so a type checker can import the entry.
export {}
