import type { z } from 'zod';
import { appRequests } from './requests/app';
import { chatRequests } from './requests/chat';
import { conversationRequests } from './requests/conversation';
import { settingsRequests } from './requests/settings';
import { keysRequests } from './requests/keys';
import { providersRequests } from './requests/providers';
import { modelsRequests } from './requests/models';
import { checkpointRequests } from './requests/checkpoints';
import { workspaceRequests } from './requests/workspace';
import { notebookRequests } from './requests/notebook';
import { kernelRequests } from './requests/kernels';
import { sandboxRequests } from './requests/sandbox';
import { mcpRequests } from './requests/mcp';
import { mcpApprovalRequests } from './requests/mcp-approval';
import { instructionsRequests } from './requests/instructions';
import { skillsRequests } from './requests/skills';
import { planRequests } from './requests/plan';
import { commandsRequests } from './requests/commands';
import { memoryRequests } from './requests/memory';
import { profilesRequests } from './requests/profiles';
import { schedulesRequests } from './requests/schedules';

// Every request the renderer may make: name → { input, output }, one file per feature under
// requests/. Both transports validate the input with these schemas before a handler sees it, and
// reject names that are not here.

export const requests = {
  ...appRequests,
  ...conversationRequests,
  ...chatRequests,
  ...settingsRequests,
  ...workspaceRequests,
  ...keysRequests,
  ...providersRequests,
  ...modelsRequests,
  ...checkpointRequests,
  ...notebookRequests,
  ...kernelRequests,
  ...sandboxRequests,
  ...mcpRequests,
  ...mcpApprovalRequests,
  ...instructionsRequests,
  ...skillsRequests,
  ...planRequests,
  ...commandsRequests,
  ...memoryRequests,
  ...profilesRequests,
  ...schedulesRequests,
} as const;

export { FILE_COUNT_CAP, type ConversationListEntry, type WorkspaceInfo } from './requests/conversation';
export { MAX_ATTACHMENT_BYTES, type FilePreview, type WorkspaceEntry, type WorkspaceTree } from './requests/workspace';
export { KeyProvider, type KeyStatus, type KeyTestResult } from './requests/keys';
export type { LocalServer } from './requests/providers';
export { ModelCapability, type ModelDescription, type ModelTarget } from './requests/models';
export type { UpdateStatus } from './requests/app';
export type { FileDiff } from './requests/checkpoints';
export type { KernelConnectionInfo, KernelSpecInfo } from './requests/kernels';
export type { SandboxStatus } from './requests/sandbox';
export {
  McpToolPolicy,
  type McpImportSource,
  type McpPromptInfo,
  type McpResourceInfo,
  type McpServerStatus,
  type McpToolInfo,
} from './requests/mcp';
export { McpApprovalDecision, McpApprovalQuestion } from './requests/mcp-approval';
export { MAX_NOTEBOOK_UPLOAD_BYTES, type NotebookSource, type NotebookRerunOutcome } from './requests/notebook';
export type { InstructionsState } from './requests/instructions';
export type { SkillInfo, SkillsState } from './requests/skills';
export type { SavedCommandInfo } from './requests/commands';
export { ProfileEntry } from './requests/profiles';
export { ScheduleDraft, ScheduleEntry, ScheduleListing } from './requests/schedules';

export type Requests = typeof requests;
export type RequestName = keyof Requests;
export type RequestInput<N extends RequestName> = z.input<Requests[N]['input']>;
export type RequestInputParsed<N extends RequestName> = z.output<Requests[N]['input']>;
export type RequestOutput<N extends RequestName> = z.output<Requests[N]['output']>;
export const requestNames = Object.keys(requests) as RequestName[];

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requests, name);
}
