// A standing answer (standing.ts) as its stored compact JSON text, for a route that sends it as it is:
// apart, so lib/server/jsonText.ts knows it without loading the answers.
export class StandingJson {
  constructor(readonly text: string) {}
}
