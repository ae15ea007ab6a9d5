import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@storage/testing';

const ROOT = path.join(__dirname, '..', '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'kafka', 'kafka.sh');
const run = promisify(execFile);

/**
 * A broker of its own for a test that stops and starts it, so the shared broker others use is never touched.
 * Runs scripts/kafka/kafka.sh with its own KAFKA_HOME and ports; the jars are linked from the shared home.
 */
export class PrivateBroker {
  private constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly home: string,
    readonly brokers: string,
  ) {}

  /** `advertisedPort`: the port clients are sent to after they connect (a proxy's), the broker's own by default. */
  static async create(options: { advertisedPort?: number } = {}): Promise<PrivateBroker> {
    const home = mkdtempSync(path.join(tmpdir(), 'kafka-outage-'));
    const sharedLibs = path.join(process.env.KAFKA_HOME ?? path.join(ROOT, '.data', 'kafka'), 'libs');
    // With the jars complete in the shared home, kafka.sh fetches nothing.
    if (existsSync(path.join(sharedLibs, '.complete'))) symlinkSync(sharedLibs, path.join(home, 'libs'));
    const [port, controllerPort] = [await freePort(), await freePort()];
    const env = {
      ...process.env,
      KAFKA_HOME: home,
      KAFKA_PORT: String(port),
      KAFKA_CONTROLLER_PORT: String(controllerPort),
      KAFKA_ADVERTISED_PORT: String(options.advertisedPort ?? port),
    };
    return new PrivateBroker(env, home, `127.0.0.1:${port}`);
  }

  async start(): Promise<void> {
    await run('bash', [SCRIPT, 'start'], { env: this.env, timeout: 120_000 });
  }

  async stop(): Promise<void> {
    await run('bash', [SCRIPT, 'stop'], { env: this.env, timeout: 60_000 });
  }

  /** Stops the broker and deletes its files. */
  async remove(): Promise<void> {
    await this.stop().catch(() => undefined);
    rmSync(this.home, { recursive: true, force: true });
  }
}
