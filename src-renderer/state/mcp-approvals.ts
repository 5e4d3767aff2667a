import { create } from 'zustand';
import type { McpApprovalQuestion } from '@contract';

interface McpApprovals {
  /** Questions from clients of `oi mcp` waiting for an answer, oldest first. */
  questions: McpApprovalQuestion[];
  asked(q: McpApprovalQuestion): void;
  closed(id: string): void;
  /** The questions main still holds (a page opened after they were asked), merged with those already here. */
  loaded(questions: McpApprovalQuestion[]): void;
}

export const useMcpApprovals = create<McpApprovals>((set) => ({
  questions: [],
  asked: (q) => set((s) => (s.questions.some((x) => x.id === q.id) ? s : { questions: [...s.questions, q] })),
  closed: (id) => set((s) => ({ questions: s.questions.filter((q) => q.id !== id) })),
  loaded: (questions) => set((s) => ({ questions: [...s.questions, ...questions.filter((q) => !s.questions.some((x) => x.id === q.id))] })),
}));
