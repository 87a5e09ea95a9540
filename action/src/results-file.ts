/**
 * `results-file`, written as the run goes: every row is appended when it is reported, every id to a side
 * file copied in at the end, so memory holds a write buffer, not the rows. The document is the one
 * consumers have always read (`mode`, `counts`, `ids`, `jobIds`, `jobStatus`, `idempotencyKey`,
 * `results`, `removed`), plus `importJobIds`/`importStatus` under the outputs' current names.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

type Clean = (text: string) => string;

/** Synchronous appends through one buffer: nothing queues in memory however fast rows come. */
class BufferedFile {
  readonly fd: number;
  readonly path: string;
  private buffer: string[] = [];
  private size = 0;
  constructor(path: string) {
    this.path = path;
    this.fd = openSync(path, 'w+', 0o600);
  }
  write(text: string): void {
    this.buffer.push(text);
    this.size += text.length;
    if (this.size >= 64 * 1024) this.flush();
  }
  flush(): void {
    if (this.buffer.length) writeSync(this.fd, this.buffer.join(''));
    this.buffer = [];
    this.size = 0;
  }
}

export interface ResultsTail {
  mode: string;
  counts: unknown;
  jobIds: string[];
  jobStatus: string;
  idempotencyKey: string;
  removed: unknown[];
}

export class ResultsFile {
  private readonly main: BufferedFile;
  private readonly ids: BufferedFile;
  private rows = 0;
  private idCount = 0;

  private readonly clean: Clean;

  private constructor(dir: string, clean: Clean) {
    this.clean = clean;
    const name = `messaging-service-results-${randomUUID()}`;
    this.main = new BufferedFile(join(dir, `${name}.json`));
    this.ids = new BufferedFile(join(dir, `${name}.ids.part`));
    this.main.write('{\n"results": [');
  }

  /** Under RUNNER_TEMP (the runner empties it after the job); undefined when it is unset. */
  static open(env: NodeJS.ProcessEnv, clean: Clean): ResultsFile | undefined {
    return env.RUNNER_TEMP ? new ResultsFile(env.RUNNER_TEMP, clean) : undefined;
  }

  get path(): string {
    return this.main.path;
  }

  /** `clean` removes the key (in every form) from each entry: masking the log does not reach this file. */
  row(entry: Record<string, unknown>): void {
    this.main.write(`${this.rows++ ? ',' : ''}\n${this.clean(JSON.stringify(entry))}`);
  }

  id(id: string): void {
    this.ids.write(`${this.idCount++ ? ',' : ''}${this.clean(JSON.stringify(id))}`);
  }

  /** Ends the document and returns its path. */
  close(tail: ResultsTail): string {
    const { mode, counts, jobIds, jobStatus, idempotencyKey, removed } = tail;
    const head = { mode, counts, jobIds, jobStatus, importJobIds: jobIds, importStatus: jobStatus, idempotencyKey, removed };
    const fields = this.clean(JSON.stringify(head, null, 1)).slice(1, -1);
    this.main.write(`\n],${fields},\n"ids": [`);
    this.main.flush();
    this.ids.flush();
    const chunk = Buffer.alloc(64 * 1024);
    for (let at = 0, n = readSync(this.ids.fd, chunk, 0, chunk.length, 0); n > 0; at += n, n = readSync(this.ids.fd, chunk, 0, chunk.length, at)) {
      writeSync(this.main.fd, chunk, 0, n);
    }
    closeSync(this.ids.fd);
    unlinkSync(this.ids.path);
    this.main.write(']\n}\n');
    this.main.flush();
    closeSync(this.main.fd);
    return this.main.path;
  }
}
