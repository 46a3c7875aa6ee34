/** What listenOnPreferredPort needs from a server: Fastify's listen. */
export interface Listenable {
  listen(options: { host: string; port: number }): Promise<string>
}

export interface PortOptions {
  host: string
  /** Tried first: the port users, plugins and docs expect (4747). */
  preferredPort: number
  /** How many consecutive ports to try from the preferred one before letting the OS pick. */
  attempts?: number
}

const DEFAULT_ATTEMPTS = 20

/**
 * Listens on the preferred port, else the next free one (4748, 4749, ...), else any port the OS
 * gives. Another copy of the emulator (or `serve`) commonly holds 4747; the app must still start
 * and show the URL it got. Trying listen itself, rather than probing first, leaves no window in
 * which another process can take the port between the probe and the listen.
 */
export async function listenOnPreferredPort(server: Listenable, options: PortOptions): Promise<string> {
  const attempts = Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS)
  for (let port = options.preferredPort; port < options.preferredPort + attempts && port <= 65535; port += 1) {
    try {
      return await server.listen({ host: options.host, port })
    } catch (error) {
      if (!isPortUnavailable(error)) throw error
    }
  }
  return server.listen({ host: options.host, port: 0 })
}

function isPortUnavailable(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code
  // EACCES: a port the OS reserves or a firewall policy forbids; just as unusable as a taken one.
  return code === 'EADDRINUSE' || code === 'EACCES'
}
