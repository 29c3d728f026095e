/**
 * Registry of extra routes (resume endpoints and the like) that every mock
 * server gets: node tests, Storybook and the `storybook` Vitest project.
 * To add some: create `mock/routes/<name>.ts` exporting a `MockRoute[]`
 * (helpers in `../sse.js`), import it here and spread it into `routes`.
 * They are matched before the built-in routes, in this order.
 */
import type { MockRoute } from '../route.js'
import { loopRoutes } from './loop.js'

export const routes: MockRoute[] = [...loopRoutes]
