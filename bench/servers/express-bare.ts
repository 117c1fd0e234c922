import express from 'express';
import { listenAndAnnounce } from './listen.js';

// Reference: the least an express 5 route can do — a constant JSON body. The emulator's GET
// is judged against this (auth, lookup and the envelope are what it adds).

const app = express();
app.disable('x-powered-by');
app.disable('etag');
const body = JSON.stringify({ success: true, data: { id: 'pay_reference', status: 'completed' } });
app.get('/ping', (_req, res) => {
  res.status(200).set('Content-Type', 'application/json; charset=utf-8').send(body);
});
listenAndAnnounce(app);
