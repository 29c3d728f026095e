/**
 * Jest, as a host runs it: jsdom through `jest-fixed-jsdom` (jsdom plus Node's
 * fetch, streams and text codecs), native ESM, and `weft` resolved by its
 * package name to the built package.
 */
export default {
  rootDir: import.meta.dirname,
  testEnvironment: 'jest-fixed-jsdom',
  testMatch: ['<rootDir>/**/*.jest.test.mjs'],
  transform: {},
}
