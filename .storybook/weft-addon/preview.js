// The addon's preview side from the sources: every story's weft clients report to an inspector the "weft" panel shows.
export { decorators } from '../../src/inspector/storybook/preview'
