/**
 * Page actions, run in order before the page is captured. The interface names the kinds and the fields of
 * a wait action; every other field follows the service. The service ignores unknown keys on an action, so
 * action objects are open. v2 adds a screenshot viewport, so each version builds its own set.
 */
import { Type, type TProperties } from '@sinclair/typebox';
import { Named, fromInterface, fromService, keywordSources, type Source } from '../annotations.js';
import { Discriminated } from '../discriminated.js';
import { Literals } from '../literals.js';
import { ruleMarks, SchemaRule, WithRules } from '../rule.js';

const present = (field: string) => Type.Object({ [field]: Type.Unknown() });

/** A wait action waits for a duration or for an element: exactly one of the two. */
const waitNeedsOneTarget = SchemaRule(
  {
    id: 'waitNeedsOneTarget',
    keyword: 'anyOf',
    message: "Either 'milliseconds' or 'selector' must be provided, but not both.",
    source: 'service',
  },
  Type.Union([
    Type.Intersect([present('milliseconds'), Type.Not(present('selector'))]),
    Type.Intersect([present('selector'), Type.Not(present('milliseconds'))]),
  ]),
  'Exactly one of `milliseconds` and `selector`.',
);

/** `screenshotExtras`: the fields a version adds to the screenshot action (v2: `viewport`). */
export function actionSchemas<E extends TProperties>(version: 'v1' | 'v2', screenshotExtras: E) {
  // The action kinds are named in §2.3 (v1) and §2.4 (v2). A wait action's fields: v1's all three in §2.3; v2's
  // `type` and `milliseconds` in §2.4, which names the wait for an element but not its field: `selector` is named
  // for v2 only among the fields of action objects that §2.6 says are shown. Every other field of an action is
  // the service's (§2.6: "not shown").
  const section = version === 'v1' ? '§2.3' : '§2.4';
  const here = fromInterface(section);
  const selectorSource = fromInterface(version === 'v1' ? '§2.3' : '§2.6');
  const interfaceSource: Source = `interface ${section}`;
  const kind = <K extends string>(type: K, description: string) => Type.Literal(type, { description, ...here });
  /** An action object: `type` required by the interface, the other required fields by the service. */
  const action = (description: string, serviceRequired: readonly string[] = []) => ({
    description,
    ...here,
    ...keywordSources({
      required: Object.fromEntries([['type', interfaceSource], ...serviceRequired.map((field) => [field, 'service'] as const)]),
    }),
  });
  const WaitAction = Named(
    'WaitAction',
    WithRules(
      Type.Object(
        {
          type: kind('wait', 'Wait.'),
          milliseconds: Type.Optional(
            Type.Number({
              exclusiveMinimum: 0,
              description: 'How long to wait, in milliseconds.',
              ...here,
              ...keywordSources({ exclusiveMinimum: 'service' }),
            }),
          ),
          selector: Type.Optional(
            Type.String({ description: 'CSS selector of an element to wait for.', examples: ['#content'], ...selectorSource }),
          ),
        },
        action(
          version === 'v1'
            ? 'Wait for a duration (`milliseconds`) or for an element (`selector`).'
            : 'Wait by duration (`milliseconds`) or wait for an element (`selector`).',
        ),
      ),
      [waitNeedsOneTarget],
    ),
  );
  const ClickAction = Named(
    'ClickAction',
    Type.Object(
      {
        type: kind('click', 'Click.'),
        selector: Type.String({ description: 'CSS selector of the element to click.', examples: ['a'], ...fromService() }),
        all: Type.Optional(
          Type.Boolean({ default: false, description: 'Click every matching element, not just the first.', ...fromService() }),
        ),
      },
      action('Click an element.', ['selector']),
    ),
  );
  const ScreenshotAction = Named(
    'ScreenshotAction',
    Type.Object(
      {
        type: kind('screenshot', 'Screenshot.'),
        fullPage: Type.Optional(
          Type.Boolean({ default: false, description: 'Capture the whole page, not just the viewport.', ...fromService() }),
        ),
        quality: Type.Optional(Type.Number({ minimum: 1, maximum: 100, description: 'Image quality, 1 to 100.', ...fromService() })),
        ...screenshotExtras,
      },
      action('Take a screenshot.'),
    ),
  );
  const WriteAction = Named(
    'WriteAction',
    Type.Object(
      {
        type: kind('write', 'Write text.'),
        text: Type.String({ description: 'Text to type.', examples: ['crawlspec'], ...fromService() }),
      },
      action('Type text into the focused element.', ['text']),
    ),
  );
  const PressAction = Named(
    'PressAction',
    Type.Object(
      { type: kind('press', 'Press a key.'), key: Type.String({ description: 'Key to press.', examples: ['Enter'], ...fromService() }) },
      action('Press a keyboard key.', ['key']),
    ),
  );
  const ScrollAction = Named(
    'ScrollAction',
    Type.Object(
      {
        type: kind('scroll', 'Scroll.'),
        direction: Type.Optional(
          Type.Union([Type.Literal('up'), Type.Literal('down')], {
            default: 'down',
            description: 'Scroll direction.',
            ...fromService(),
          }),
        ),
        selector: Type.Optional(Type.String({ description: 'CSS selector of the element to scroll.', ...fromService() })),
      },
      action('Scroll the page or an element.'),
    ),
  );
  const ScrapeAction = Named(
    'ScrapeAction',
    Type.Object({ type: kind('scrape', 'Scrape.') }, action('Capture the page content at this point.')),
  );
  const ExecuteJavascriptAction = Named(
    'ExecuteJavascriptAction',
    Type.Object(
      {
        type: kind('executeJavascript', 'Execute JavaScript.'),
        script: Type.String({ description: 'JavaScript source to run in the page.', examples: ['document.title'], ...fromService() }),
      },
      action('Run JavaScript in the page.', ['script']),
    ),
  );
  const PdfAction = Named(
    'PdfAction',
    Type.Object(
      {
        type: kind('pdf', 'Generate PDF.'),
        landscape: Type.Optional(Type.Boolean({ default: false, description: 'Landscape orientation.', ...fromService() })),
        scale: Type.Optional(Type.Number({ default: 1, description: 'Rendering scale.', ...fromService() })),
        format: Type.Optional(
          Literals(['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger'], {
            default: 'Letter',
            description: 'Paper size.',
            ...fromService(),
          }),
        ),
      },
      action('Render the page as a PDF.'),
    ),
  );
  const Action = Named(
    'Action',
    Discriminated(
      [WaitAction, ClickAction, ScreenshotAction, WriteAction, PressAction, ScrollAction, ScrapeAction, ExecuteJavascriptAction, PdfAction],
      {
        description: 'An action performed on the page before it is captured; `type` selects the kind.',
        ...here,
      },
    ),
  );
  const Actions = Type.Array(Action, {
    maxItems: 50,
    ...ruleMarks({ id: 'atMost50Actions', keyword: 'maxItems', message: 'Number of actions cannot exceed 50', source: 'service' }),
    description: 'Actions performed on the page, in order, before capture. At most 50.',
    ...here,
    ...keywordSources({ maxItems: 'service' }),
  });
  return { Action, Actions };
}
