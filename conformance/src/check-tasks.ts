import {
  followTask, isReplaySafe, nextTaskStep, readTask, revisionTraits, taskLost, taskMode,
  type LossCause, type Operation, type TaskFacts, type TaskLossCause, type TaskPollPolicy, type ToolTrust,
} from '@mcp-resilience/core';
import type { Checker } from './check-decisions.ts';
import { need, oneOf, onlyKeys, optional, record } from './json-input.ts';

const OPS = ['traits', 'mode', 'read', 'poll', 'follow', 'lost', 'replay'] as const;

/**
 * The `tasks` area, grouped by revision: what each revision has of tasks (`traits`), whether a
 * tool call goes as a task (`mode`), a task read from a server's answer (`read`), the next step
 * of polling (`poll`), what an answer about a task means after a session loss (`follow`), the
 * `TASK_LOST` error (`lost`), and whether a task request may be sent again (`replay`).
 */
const tasks: Checker = (input, where) => {
  const op = oneOf(input, 'op', OPS, where);
  const revision = need(input, 'revision', 'string', where);
  switch (op) {
    case 'traits':
      onlyKeys(input, ['op', 'revision'], where);
      return { tasks: revisionTraits(revision).tasks };
    case 'mode':
      onlyKeys(input, ['op', 'revision', 'capabilities', 'taskSupport'], where);
      return { mode: taskMode({ revision, capabilities: input.capabilities, taskSupport: input.taskSupport }) };
    case 'read':
      onlyKeys(input, ['op', 'revision', 'value'], where);
      return { task: readTask(input.value) ?? null };
    case 'poll': {
      onlyKeys(input, ['op', 'revision', 'task', 'nowMs', 'startedAtMs', 'createdAtMs', 'policy'], where);
      const policy = input.policy === undefined ? {} : { policy: record(input.policy, `${where} policy`) as unknown as TaskPollPolicy };
      return nextTaskStep({
        task: record(input.task, `${where} task`) as unknown as TaskFacts, nowMs: need(input, 'nowMs', 'number', where),
        startedAtMs: need(input, 'startedAtMs', 'number', where), createdAtMs: need(input, 'createdAtMs', 'number', where), ...policy,
      });
    }
    case 'follow': {
      onlyKeys(input, ['op', 'revision', 'knownOn', 'answeredOn', 'unknown', 'loss'], where);
      const loss = optional(input, 'loss', 'string', where) as LossCause | undefined;
      return followTask({
        revision, knownOn: need(input, 'knownOn', 'number', where), answeredOn: need(input, 'answeredOn', 'number', where),
        unknown: need(input, 'unknown', 'boolean', where), ...(loss === undefined ? {} : { loss }),
      });
    }
    case 'lost':
      onlyKeys(input, ['op', 'revision', 'taskId', 'cause', 'recreatable'], where);
      return taskLost({
        taskId: need(input, 'taskId', 'string', where), cause: need(input, 'cause', 'string', where) as TaskLossCause,
        recreatable: need(input, 'recreatable', 'boolean', where),
      });
    case 'replay': {
      onlyKeys(input, ['op', 'revision', 'operation', 'tools'], where);
      const tools = input.tools === undefined ? undefined : (record(input.tools, `${where} tools`) as ToolTrust);
      return { safe: isReplaySafe(record(input.operation, `${where} operation`) as Operation, 'safe', tools) };
    }
  }
};

/** Checkers of the areas about tasks. */
export const TASK_CHECKERS: Readonly<Record<string, Checker>> = { tasks };
