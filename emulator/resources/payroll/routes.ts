import { defineRoute } from '../../gateway/route.js';
import { createPayrollRun, getOwnRun, viewRun } from './domain.js';

export const payrollRoutes = [
  defineRoute('createPayrollRun', (ctx, { body }, tx) => createPayrollRun(ctx, body, tx)),
  defineRoute('getPayrollRun', (ctx, { params }) => viewRun(ctx.services, getOwnRun(ctx, params.id))),
];
