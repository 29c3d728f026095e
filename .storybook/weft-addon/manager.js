// weft's Storybook addon from the sources, as a host's Storybook loads it from `weft/storybook-addon`:
// the "weft" panel, with weft's stylesheet for it.
import '../../src/components/styles.css'
import '../../src/inspector/storybook/register'
