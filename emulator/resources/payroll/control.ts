import { defineControl, type ControlRoute } from '../../control/route.js';
import { approvePayrollRun } from './domain.js';
import { PayrollApproval } from '../../../contract/resources/payroll.js';

// The owner's approval, for `svc payroll approve <run_id>`: the PIN is the authorization.

export const payrollControlRoutes: ControlRoute[] = [
  defineControl({
    method: 'post',
    path: '/payroll-runs/:id/approve',
    summary: "Approve a payroll run with the business owner's PIN; it executes at once",
    body: PayrollApproval,
    handler: (s, { params, body }, tx) => approvePayrollRun(s, tx, params.id, body.pin),
  }),
];
