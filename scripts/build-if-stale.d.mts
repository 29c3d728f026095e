/** What the build is made from: `src/` and the files that say how it is built. */
export const BUILD_INPUTS: readonly string[]
/** Whether every file of `built` (paths from the package root) exists and is newer than every build input. */
export function distIsFresh(built?: readonly string[]): boolean
/** Runs `npm run build` when `dist/` is not fresh; returns whether it built. */
export function buildIfStale(built?: readonly string[]): boolean
