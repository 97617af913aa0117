/**
 * The text of an answer as Open WebUI sends or stores it: `content` up to 0.9 and again from
 * 0.11 (which fills it from `output`); in 0.10 a finished answer is stored with an empty
 * `content` and its text only in `output` (`[{type: 'message', content: [{type:
 * 'output_text', text}]}]`), which is also the shape of 0.12's `done` event.
 */

export function messageText(message: { content?: unknown; output?: unknown }): string | undefined {
  if (typeof message.content === 'string' && message.content !== '') return message.content;
  const output = Array.isArray(message.output) ? message.output : [];
  const parts = output.flatMap((item) => (Array.isArray(item?.content) ? item.content : []));
  const texts = parts
    .map((part: { text?: unknown }) => part?.text)
    .filter((text): text is string => typeof text === 'string');
  if (texts.length) return texts.join('');
  return typeof message.content === 'string' ? message.content : undefined;
}
