import type { HandlerTable } from '../bridge/handler-table';
import type { ScheduleAdmin } from '../schedules/schedule-admin';

type SchedulesHandlers = Pick<HandlerTable, 'schedules.list' | 'schedules.save' | 'schedules.remove' | 'schedules.run'>;

/** The Schedules screen (docs/schedules.md#the-schedules-screen); the admin and the store check everything. */
export const schedulesHandlers = (admin: ScheduleAdmin): SchedulesHandlers => ({
  'schedules.list': () => admin.listing(),
  'schedules.save': ({ draft, id }) => admin.save(draft, id),
  'schedules.remove': ({ id }) => admin.remove(id),
  'schedules.run': async ({ id }) => {
    await admin.run(id);
    return { ok: true as const };
  },
});
