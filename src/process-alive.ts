/**
 * Whether a process with this id runs on this host: signal 0 checks without sending anything, and
 * EPERM means it runs as another user. Lock files and temporary folders named by their writer's
 * pid are abandoned when it does not (the model folder, the index's temporaries, a git source).
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
