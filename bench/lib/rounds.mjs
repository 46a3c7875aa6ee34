// Rounds: the limit and every throughput run are measured config.rounds times, one server at a
// time, and each server's best round is the one reported: the round with the highest req/s for the
// figures at 50 connections, and the round with the shortest call for the one-connection part
// (`single`), each its own measurement, which a busy neighbour slows on its own. Every round's
// figures stay in the result (`rounds`, `singleRounds`), and an inspector count that lost
// entries in any round is kept.

/** The best of one server's rounds, with every round's req/s and ms a call; null for none. */
export function bestRound(results) {
  if (results.length === 0) return null
  const best = results.reduce((a, b) => (b.rps > a.rps ? b : a))
  const singles = results.filter((result) => result.single)
  const bestSingle =
    singles.length === 0 ? null : singles.reduce((a, b) => (b.single.perCallMs < a.single.perCallMs ? b : a))
  const lost = results.find((result) => result.inspector && !result.inspector.complete)
  return {
    ...best,
    ...(bestSingle ? { single: bestSingle.single } : {}),
    ...(lost && best.inspector?.complete ? { inspector: lost.inspector } : {}),
    ...(results.length > 1 ? { rounds: results.map((result) => result.rps) } : {}),
    ...(singles.length > 1 ? { singleRounds: singles.map((result) => result.single.perCallMs) } : {})
  }
}

/** The best round of each run, by name, in the order the runs were first made. */
export function bestRoundPerRun(results) {
  const byName = new Map()
  for (const result of results) byName.set(result.name, [...(byName.get(result.name) ?? []), result])
  return [...byName.values()].map(bestRound)
}
