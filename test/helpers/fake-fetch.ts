/**
 * An injected `fetch` for transport tests that open no socket: it records each
 * request and answers with a real `Response` the test builds, plus the helpers
 * that read a rejection as the kit's typed error.
 */
import { expect } from 'vitest'
import { WeftStreamError, type WeftError } from '../../src/core/model/errors'

/** One request the fake fetch was asked for. */
export interface Call {
  url: string
  init: RequestInit
}

/** A fetch that records what it was asked and answers with `respond`. */
export function fakeFetch(respond: (init: RequestInit) => Response | Promise<Response>): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} })
    return respond(init ?? {})
  }) as typeof globalThis.fetch
  return { fetch, calls }
}

/** What a promise rejected with; fails when it resolves. */
export async function caught(work: Promise<unknown>): Promise<unknown> {
  try {
    await work
  } catch (thrown) {
    return thrown
  }
  throw new Error('expected a rejection')
}

/** The `WeftError` a rejection carries; fails unless it is a `WeftStreamError` whose message is the error's. */
export async function rejection(work: Promise<unknown>): Promise<WeftError> {
  const thrown = await caught(work)
  expect(thrown).toBeInstanceOf(WeftStreamError)
  const error = thrown as WeftStreamError
  expect(error.message).toBe(error.info.message)
  return error.info
}

/** A request's headers as `[name, value]` pairs, lower-cased by `Headers`. */
export const headerList = (init: RequestInit): [string, string][] => [...new Headers(init.headers).entries()]
