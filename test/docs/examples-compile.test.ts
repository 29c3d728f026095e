/**
 * Every `@example` in src compiles, as a module a host could have written.
 *
 * How an example becomes a module (test/docs/doc-examples.ts): its code, fragments
 * made statements (an object literal or a JSX element alone is an expression,
 * sibling elements one fragment, `...` elisions dropped, a body that returns a
 * function's). It is compiled once on its own, which tells the names it uses
 * without defining them; then again with each of those names
 *  - imported from weft when a module exports it: the file the example documents,
 *    that file's entry, the umbrella `weft`, any other entry, then any other module of
 *    src (so an internal module's example is checked against its neighbours' types);
 *    React's names (`useRef`) from react;
 *  - declared `any` when src declares it without exporting it, or nothing declares it:
 *    the host's own variables (`client`, `store`, `turnId`), helpers and components.
 * All the examples are one program (with the sources), so this takes seconds.
 *
 * What fails: a syntax error; a diagnostic of the second compile (a wrong argument, a
 * missing or unknown property, an arity error, a name imported as a type used as a
 * value) on weft's own typed functions and components; and a name that looks like
 * weft's but that nothing in weft defines, which is how a renamed or misspelled export
 * shows. Declaring every unknown name `any` would hide those, and reporting every one
 * would flood (examples call `loadChat()`, draw `<WeatherCard />`), so an unknown name
 * used as a function, constructor, JSX tag or type is reported when it is
 *  1. a hook (`use` and a capital): the hooks of weft's examples are weft's or React's;
 *  2. a near miss of a weft name (public or internal): TypeScript suggests one, or it
 *     has 6 characters or more, the same first letter, and an edit distance of 1 (2 from
 *     10 characters), case aside (`Transcrpt`, `createAgentStor`); or
 *  3. named like a family of weft's: its first two words are the first two of an
 *     export's (`createConversationList` beside `createConversations`, plurals aside).
 * A host name that trips a rule can be renamed (`MyChart`) or listed in HOST_NAMES.
 *
 * Examples in files another change is moving are listed in PENDING with the reason,
 * and must fail for it: an entry that compiles is reported, so the list only shrinks.
 */
import { describe, expect, it } from 'vitest'
import { compile, type Example, examples, keyOf, type Problem, type Use, type WeftNames } from './doc-examples'

/** The test runner's globals, which the testing entry's examples call. */
const TEST_RUNNER = new Set(['expect', 'test', 'it', 'describe', 'vi', 'beforeEach', 'afterEach'])

/** The host's own names that look like weft's by the rules above. */
const HOST_NAMES = new Set<string>([])

/** Examples that fail today, in files being moved: `file#n` (the file's n-th `@example`) and why. */
const PENDING: Record<string, string> = {
  'src/protocols/ag-ui/event-fields.ts#5': '`messageExtras` takes the role as its second argument (the protocols are being moved)',
}

const words = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(' ').map((w) => w.replace(/s$/, ''))

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = row[j]!
      row[j] = next
    }
  }
  return row[b.length]!
}

/** Why an unknown name looks like weft's (the header's three rules), or undefined when it does not. */
export function looksLikeWefts(name: string, use: Use, weft: WeftNames): string | undefined {
  // A name src declares exists: a one-word internal name (`fold`) is declared, not imported.
  if (HOST_NAMES.has(name) || TEST_RUNNER.has(name) || weft.all.has(name)) return undefined
  if (!(use.called || use.constructed || use.jsx || use.type)) return undefined
  if (/^use[A-Z]/.test(name)) return 'a hook'
  if (use.suggestion && weft.all.has(use.suggestion)) return `did you mean '${use.suggestion}'?`
  const lower = name.toLowerCase()
  const limit = name.length >= 10 ? 2 : 1
  if (name.length >= 6) {
    for (const known of weft.all) {
      if (known[0]!.toLowerCase() !== lower[0] || Math.abs(known.length - name.length) > limit) continue
      if (distance(lower, known.toLowerCase()) <= limit) return `did you mean '${known}'?`
    }
  }
  const [head, second] = words(name)
  if (second === undefined) return undefined
  const family = [...weft.public].find((known) => {
    const w = words(known)
    return w[0] === head && w[1] === second
  })
  return family && `named like '${family}'`
}

const show = (p: Problem) => `${p.example.file}#${p.example.index} (line ${p.example.line + p.at - 1}): ${p.code ? `TS${p.code} ` : ''}${p.text}`

/** Examples written to fail, one reason each, compiled with the others: the check must report each. */
const PROBES = {
  host: "const turn = selectTurn(state, turnId)\n<Transcript.Turn turnId={turn?.id ?? ''} />\n<WeatherCard city={city} />\nloadChat(id).then(show)",
  syntax: "selectTurn(state, 'a'",
  argument: 'selectTurn(state, 1)',
  property: '<Transcript.Turn id={id} />',
  misspelled: 'useAgentStrem({ url })',
  renamed: 'const c = createConversationList({})',
  component: '<TranscriptRoot />',
}

function probes(): Example[] {
  return Object.values(PROBES).map((code, i) => ({ file: 'src/core/store/selectors.ts', index: 1000 + i, line: 1, code }))
}

describe('@example blocks in src', () => {
  const list = examples()
  const probeList = probes()
  const { problems } = compile([...list, ...probeList], looksLikeWefts)
  const real = problems.filter((p) => p.example.index < 1000)
  const probeProblems = (name: keyof typeof PROBES) =>
    problems.filter((p) => p.example === probeList[Object.keys(PROBES).indexOf(name)]).map((p) => p.text).join('\n')

  it('finds the examples', () => {
    expect(list.length).toBeGreaterThan(600)
  })

  it('every example compiles against the entries, and names nothing weft lacks', () => {
    const failing = real.filter((p) => !(keyOf(p.example) in PENDING))
    expect(failing.map(show)).toEqual([])
  })

  it('the examples listed as pending still fail (remove an entry once its example is fixed)', () => {
    const failingKeys = new Set(real.map((p) => keyOf(p.example)))
    expect(Object.keys(PENDING).filter((key) => !failingKeys.has(key))).toEqual([])
  })

  it("passes a fragment that uses the host's own names", () => {
    expect(probeProblems('host')).toBe('')
  })

  it('reports syntax errors, wrong arguments, unknown properties, misspelled and renamed exports', () => {
    expect(probeProblems('syntax')).toMatch(/expected/)
    expect(probeProblems('argument')).toMatch(/number/)
    expect(probeProblems('property')).toMatch(/turnId/)
    expect(probeProblems('misspelled')).toMatch(/'useAgentStrem' .*a hook/)
    expect(probeProblems('renamed')).toMatch(/'createConversationList' .*named like/)
    expect(probeProblems('component')).toMatch(/'TranscriptRoot' .*a JSX tag/)
  })
})
