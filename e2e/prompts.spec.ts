import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PromptsPage } from './pages/prompts-page';
import { chatTest, DOCS_DIR, everythingServerConfig, expect } from './support/berth';

chatTest.describe('slash commands (prompts)', () => {
  chatTest.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

  chatTest(
    '/ lists the prompts, completion suggests values, and the filled prompt lands in the message box',
    async ({ app, fakeLlm }) => {
      fakeLlm.script([{ text: 'Done: Bob now leads Engineering.' }]);
      const prompts = new PromptsPage(app);
      const { chat } = prompts;
      await chat.show();
      await chat.newConversation();
      await chat.waitForServer('everything');

      await prompts.typeInComposer('/');
      for (const name of ['simple-prompt', 'args-prompt', 'completable-prompt'])
        await expect(prompts.option(name)).toBeVisible();
      await expect(chat.input).toHaveAttribute('role', 'combobox');
      await app.mouse.move(0, 0);
      await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'slash-menu.png') });
      // Esc closes the menu and leaves the text; typing again reopens it.
      await chat.input.press('Escape');
      await prompts.expectMenuClosed();
      await prompts.typeInComposer('team');
      await expect(prompts.options).toHaveCount(1);
      await expect(prompts.option('completable-prompt')).toContainText('Team Management');
      await expect(prompts.option('completable-prompt')).toHaveAttribute('aria-selected', 'true');
      await chat.input.press('Enter');

      // The form: each argument suggests values as the person types.
      await expect(prompts.form).toBeVisible();
      const department = prompts.field(/department/);
      await expect(department).toBeFocused();
      await department.pressSequentially('E');
      const suggestions = prompts.suggestions('department');
      await expect(suggestions.getByRole('option')).toHaveText(['Engineering']);
      await department.press('ArrowDown');
      await expect(suggestions.getByRole('option', { name: 'Engineering' })).toHaveAttribute('aria-selected', 'true');
      await department.press('Enter');
      await expect(department).toHaveValue('Engineering');
      await expect(suggestions).toBeHidden();

      // The lead's suggestions depend on the department already filled in (sent as context).
      const lead = prompts.field(/name/);
      await lead.focus();
      await expect(prompts.suggestions('name').getByRole('option')).toHaveText(['Alice', 'Bob', 'Charlie']);
      await lead.press('ArrowDown');
      await app.mouse.move(0, 0);
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'slash-commands.png') });

      // Esc closes only the list; inserting with the lead empty says what is missing.
      await lead.press('Escape');
      await expect(prompts.suggestions('name')).toBeHidden();
      await expect(prompts.form).toBeVisible();
      await prompts.insert();
      await expect(prompts.form.getByRole('alert')).toHaveText('Enter name: this prompt needs it');
      await expect(lead).toBeFocused();
      await lead.pressSequentially('B');
      await expect(prompts.suggestions('name').getByRole('option')).toHaveText(['Bob']);
      await prompts.suggestions('name').getByRole('option', { name: 'Bob' }).click();
      await expect(lead).toHaveValue('Bob');
      await expect(prompts.form.getByRole('alert')).toBeHidden();
      await lead.press('Enter');

      await expect(prompts.form).toBeHidden();
      await expect(chat.input).toHaveValue('Please promote Bob to the head of the Engineering team.');
      await expect(chat.input).toBeFocused();
      // The person sends it.
      await chat.input.press('Enter');
      await expect(chat.assistantMessages().last()).toContainText('Bob now leads Engineering');
      expect(JSON.stringify(fakeLlm.requests.at(-1)?.body?.messages)).toContain(
        'Please promote Bob to the head of the Engineering team.',
      );
    },
  );

  chatTest('a prompt without arguments, a server error shown inline, and Cancel restores the text', async ({ app }) => {
    const prompts = new PromptsPage(app);
    const { chat } = prompts;
    await chat.show();
    await chat.newConversation();
    await chat.waitForServer('everything');

    await prompts.typeInComposer('/simple');
    await chat.input.press('Tab');
    await expect(prompts.form).toContainText('This prompt takes no arguments.');
    await prompts.form.getByRole('button', { name: 'Cancel' }).click();
    await expect(chat.input).toHaveValue('/simple');

    await chat.input.fill('');
    await prompts.typeInComposer('/args');
    await chat.input.press('Enter');
    await prompts.field(/city/).fill('Paris');
    await prompts.insert();
    await expect(chat.input).toHaveValue("What's weather in Paris?");
  });
});

chatTest.describe('slash commands without servers', () => {
  chatTest('says that no ready server offers prompts and what to do', async ({ app }) => {
    const prompts = new PromptsPage(app);
    await prompts.chat.show();
    await prompts.chat.newConversation();
    await prompts.typeInComposer('/');
    await expect(prompts.menu).toContainText('No ready server offers prompts');
    await prompts.chat.input.press('Escape');
    await prompts.expectMenuClosed();
  });
});
