/** A form field the payer has to correct; nothing was charged. The page shows the message. */
export class FieldProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}
