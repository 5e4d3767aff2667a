import { memo, Suspense } from 'react';
import type { ConversationItem } from '@contract';
import { skillUseText } from '@contract/skill-use';
import { PLAN_LANGUAGE, TASKS_LANGUAGE } from '@contract/plan-text';
import { isDelegateCell } from '@contract/subagent-use';
import { SCHEDULE_LANGUAGE } from '@contract/schedule-language';
import { SubagentThread } from '../subagents/SubagentThread';
import { PlanCard } from '../plan/PlanCard';
import { TaskCallRow } from '../plan/TaskCallRow';
import type { ConversationView } from '../../state/conversation-reducer';
import { CodeCell } from '../cells/CodeCell';
import { AssistantMessage } from './AssistantMessage';
import { NoticeRow } from './NoticeRow';
import { SkillUseRow } from './SkillUseRow';
import { UserMessage } from './UserMessage';
import { lazyNamed } from '../common/lazy-named';

// The schedule card reads its proposal with the schedule schemas (zod): a chunk of its own, loaded the
// first time a conversation shows one, so they stay out of the window's first chunk.
const ScheduleCard = lazyNamed(() => import('./ScheduleCard'), 'ScheduleCard');

interface Props {
  item: ConversationItem;
  isLastUser: boolean;
  isLast: boolean;
  busy: boolean;
  lastEnd: ConversationView['lastEnd'];
}

/** One item of the conversation; memoised so a streaming item re-renders alone. */
export const MessageRow = memo(function MessageRow({ item, isLastUser, isLast, busy, lastEnd }: Props) {
  switch (item.kind) {
    case 'user':
      return <UserMessage item={item} editable={isLastUser && !busy} />;
    case 'assistant':
      return <AssistantMessage item={item} canRegenerate={isLast && !busy} />;
    case 'cell':
      if (item.language === PLAN_LANGUAGE) return <PlanCard cell={item} />;
      if (item.language === TASKS_LANGUAGE) return <TaskCallRow cell={item} />;
      if (item.language === SCHEDULE_LANGUAGE)
        return (
          <Suspense fallback={null}>
            <ScheduleCard cell={item} />
          </Suspense>
        );
      if (isDelegateCell(item)) return <SubagentThread cell={item} Row={MessageRow} />;
      return skillUseText(item) === null ? <CodeCell cell={item} /> : <SkillUseRow cell={item} />;
    case 'notice':
      return <NoticeRow item={item} canRetry={isLast && !busy && lastEnd === 'error' && item.level === 'error'} />;
  }
});
