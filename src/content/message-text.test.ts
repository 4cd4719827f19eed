import assert from 'node:assert/strict';
import { test } from 'node:test';
import { messageText, previewOf, type MessageWords } from './message-text.js';

/** Words of another language, as the dashboard passes them (here Portuguese). */
const portuguese: MessageWords = {
  interactive: 'Mensagem interativa',
  media: (kind, caption) => (caption ? `${kind === 'image' ? 'Imagem' : kind}: ${caption}` : 'Imagem'),
  reacted: (emoji) => `Reagiu com ${emoji}`,
  removedReaction: 'Removeu uma reação',
  location: (name) => (name ? `Localização: ${name}` : 'Localização'),
  contact: (name) => `Contato: ${name || 'cartão'}`,
  other: (type) => `Mensagem do tipo ${type}`,
};

test('message text › English by default, for the API and notifications', () => {
  assert.equal(previewOf('image', { caption: 'The cake' }), 'Image: The cake');
  assert.equal(previewOf('reaction', { emoji: '👍' }), 'Reacted 👍');
  assert.equal(previewOf('location', {}), 'Location');
  assert.equal(previewOf('contacts', { contacts: [{ name: { formatted_name: 'Ana' } }] }), 'Contact: Ana');
  assert.equal(previewOf('order', {}), 'Order message');
  assert.equal(messageText('text', { body: 'Two\nlines' }), 'Two\nlines');
});

test('message text › in the words given; the customer’s own text is never translated', () => {
  assert.equal(previewOf('image', { caption: 'O bolo' }, portuguese), 'Imagem: O bolo');
  assert.equal(previewOf('reaction', {}, portuguese), 'Removeu uma reação');
  assert.equal(previewOf('location', { name: 'Loja' }, portuguese), 'Localização: Loja');
  assert.equal(previewOf('interactive', {}, portuguese), 'Mensagem interativa');
  assert.equal(previewOf('interactive', { button_reply: { title: 'Yes' } }, portuguese), 'Yes');
  assert.equal(messageText('text', { body: 'Hello' }, portuguese), 'Hello');
});
