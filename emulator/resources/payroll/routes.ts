import { defineRoute } from '../../gateway/route.js';
import { createPayrollRun, getOwnRun, viewRun } from './domain.js';
import { CreatePayrollRun, PayrollRunIdParams, PayrollRunWithLines } from './schema.js';

export const payrollRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/api/payroll/runs',
    scope: 'payroll:create',
    business: true,
    summary: "Create a payroll run (pending_approval); the owner approves it with a PIN at approval_url",
    idempotency: { header: 'Idempotency-Key', required: true },
    body: CreatePayrollRun,
    status: 201,
    response: PayrollRunWithLines,
    handler: (ctx, { body }, tx) => createPayrollRun(ctx, body, tx),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/api/payroll/runs/:id',
    scope: 'payroll:read',
    business: true,
    summary: 'Read a payroll run with every line',
    params: PayrollRunIdParams,
    response: PayrollRunWithLines,
    handler: (ctx, { params }) => viewRun(ctx, getOwnRun(ctx, params.id)),
  }),
];
