import fc from 'fast-check'

// Mutation runs repeat the covering tests once per mutant: property tests run 20 cases
// each there (100 in `npm test`). A mutant that needs more cases to show is reported as
// surviving and reviewed, so this only ever understates the score.
fc.configureGlobal({ numRuns: 20 })

// Tests that try every cut of a stream try a spread of them here (the loopback resume tests).
process.env.WEFT_MUTATION_RUN = '1'
