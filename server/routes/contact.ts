import type { FastifyInstance } from 'fastify';
import { contactSchema, messages } from '../../src/contract';
import { storeContactMessage } from '../contact/queries';
import type { AppDeps } from '../deps';
import { invalid, messageSchema, type Operation, rateLimited } from '../http/doc';
import { contactLimit } from '../http/rate-limit';
import { parse } from '../http/validate';
import { sendMail } from '../mail/mailer';

export default async function contactRoutes(app: FastifyInstance, deps: AppDeps) {
  const contactDoc: Operation = {
    summary: 'Send a message to the operator',
    body: contactSchema,
    description: 'Stored first, then mailed to the operator with the sender as Reply-To.',
    responses: {
      201: { description: `\`{message: '${messages.contact.sent}'}\``, schema: messageSchema },
      422: invalid,
      429: rateLimited(deps.config.contactRateLimit, deps.config.rateLimitWindowMs),
    },
  };
  app.post('/v1/contact', { config: { ...contactLimit(deps), doc: contactDoc } }, async (request, reply) => {
    const input = parse(contactSchema, request.body);
    // Stored first: the operator still sees the message if mail is down.
    await storeContactMessage(deps.database.db, input, request.ip);
    await sendMail(deps, {
      to: deps.config.operatorEmail,
      replyTo: input.email,
      subject: `Contact form: ${input.email}`,
      text: input.message,
    });
    return reply.status(201).send({ message: messages.contact.sent });
  });
}
