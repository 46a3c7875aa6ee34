// Rounds: the limit and every throughput run are measured config.rounds times, one server at a
// time, and each server's best round (highest req/s) is the one reported. Every round's figures
// stay in the result (\`rounds\`), and an inspector count that lost entries in any round is kept.

/** The best of one server's rounds, with every round's req/s; null for none. */
export function bestRound(results) {
  if (results.length === 0) return null
  const best = results.reduce((a, b) => (b.rps > a.rps ? b : a))
  const lost = results.find((result) => result.inspector && !result.inspector.complete)
  return {
    ...best,
    ...(lost && best.inspector?.complete ? { inspector: lost.inspector } : {}),
    ...(results.length > 1 ? { rounds: results.map((result) => result.rps) } : {})
  }
}

/** The best round of each run, by name, in the order the runs were first made. */
export function bestRoundPerRun(results) {
  const byName = new Map()
  for (const result of results) byName.set(result.name, [...(byName.get(result.name) ?? []), result])
  return [...byName.values()].map(bestRound)
}
