import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { childEnv, compileOnce, stopChild } from '../lib/child-process.js';
import { connect, type HttpLevel, type LevelRun, runLevel, summarizeLevel } from './http-level.js';

/**
 * svc-docs beside the MCP SDK's own floor (floor-server.ts) in one interleaved run: each load
 * level is split into rounds, and in each round both servers take the same share of calls one
 * after the other (the order alternating round by round), so a busy machine weighs on both
 * alike. Each level's figures pool its rounds; the ratios are svc-docs over the floor.
 */

export interface FloorRatios {
  sessions: number;
  /** svc ÷ floor: client-side p50 and p95, server CPU per call (every thread of the process), calls/s. */
  p50: number;
  p95: number;
  serverCpuPerCall: number;
  throughput: number;
}

export interface FloorComparison {
  server: string;
  /** Rounds each level was split into, alternating svc-docs and the floor. */
  rounds: number;
  /** Characters of the answers both servers returned (svc-docs' captured once, served from a map by the floor): median. */
  answerCharsP50: number;
  floorLevels: HttpLevel[];
  ratios: FloorRatios[];
}

export interface RunningServer {
  url: string;
  pid: number;
}

/** svc-docs' answer text for every query, asked once over a real session: what the floor will serve. */
export async function captureAnswers(url: string, queries: string[]): Promise<Record<string, string>> {
  const client = await connect(url);
  const answers: Record<string, string> = {};
  try {
    for (const searchTerm of new Set(queries)) {
      const result = await client.callTool({ name: 'SearchDocs', arguments: { searchTerm } });
      const first = (result.content as { type: string; text?: string }[])[0];
      if (result.isError || first?.type !== 'text' || first.text === undefined)
        throw new Error(`svc-docs gave no text answer for '${searchTerm}' to capture for the floor`);
      answers[searchTerm] = first.text;
    }
  } finally {
    await client.close();
  }
  return answers;
}

/** The compiled floor server on a loopback port, serving `answers`; resolved once it listens. */
export async function spawnFloor(
  answers: Record<string, string>,
  work: string,
  log: (line: string) => void,
): Promise<RunningServer & { stop(): Promise<void> }> {
  const out = await compileOnce(log);
  const file = join(work, 'floor-answers.json');
  writeFileSync(file, JSON.stringify(answers));
  const child = spawn(process.execPath, [join(out, 'bench', 'speed', 'floor-server.js'), `--answers=${file}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv(),
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const port = await new Promise<number>((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      const match = /listening (\d+)/.exec(stdout);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`the SDK floor server exited with ${code}: ${stderr.trim()}`)));
  });
  return { url: `http://127.0.0.1:${port}/docs`, pid: child.pid!, stop: () => stopChild(child) };
}

function ratiosOf(svc: HttpLevel, floor: HttpLevel): FloorRatios {
  return {
    sessions: svc.sessions,
    p50: svc.p50 / floor.p50,
    p95: svc.p95 / floor.p95,
    serverCpuPerCall: svc.serverCpuMsPerCall / floor.serverCpuMsPerCall,
    throughput: svc.throughput / floor.throughput,
  };
}

/** One level on both servers, `rounds` rounds of `callsPerSession / rounds` calls each, alternating. */
export async function interleavedLevel(
  svc: RunningServer,
  floor: RunningServer,
  queries: string[],
  sessions: number,
  callsPerSession: number,
  rounds: number,
): Promise<{ svc: HttpLevel; floor: HttpLevel; ratios: FloorRatios }> {
  const perRound = Math.max(1, Math.round(callsPerSession / rounds));
  const runs: { svc: LevelRun[]; floor: LevelRun[] } = { svc: [], floor: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['svc', 'floor'] as const) : (['floor', 'svc'] as const);
    for (const which of order) {
      const server = which === 'svc' ? svc : floor;
      runs[which].push(await runLevel(server.url, queries, sessions, perRound, server.pid));
    }
  }
  const svcLevel = summarizeLevel(sessions, runs.svc);
  const floorLevel = summarizeLevel(sessions, runs.floor);
  return { svc: svcLevel, floor: floorLevel, ratios: ratiosOf(svcLevel, floorLevel) };
}
