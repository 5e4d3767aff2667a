import type { Conversation } from '@contract';
import { ANSI_TRACEBACK, richSession, pythonShellSession } from './session-fixtures';

export { richSession, pythonShellSession, ANSI_TRACEBACK };
export type { Conversation };
