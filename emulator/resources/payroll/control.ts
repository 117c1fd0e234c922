import { defineControl, type ControlRoute } from '../../control/route.js';
import { approvePayrollRun } from './domain.js';

// The owner's approval, for `svc payroll approve <run_id>`: the PIN is the authorization.

export const payrollControlRoutes: ControlRoute[] = [
  defineControl('approvePayrollRun', { handler: (s, { params, body }, tx) => approvePayrollRun(s, tx, params.id, body.pin) }),
];
