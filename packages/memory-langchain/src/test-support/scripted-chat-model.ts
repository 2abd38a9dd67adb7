// LangChain's FakeChatModel taught to call tools: it answers the n-th call with the n-th scripted
// message (an AIMessage with tool_calls, or text) and keeps what it was sent and which tools it got.
import type { BaseMessage } from "@langchain/core/messages";
import { AIMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { FakeChatModel } from "@langchain/core/utils/testing";

export type Step = (messages: BaseMessage[]) => AIMessage;

export class ScriptedToolCallingModel extends FakeChatModel {
  readonly calls: BaseMessage[][] = [];
  boundTools: StructuredToolInterface[] = [];
  private next = 0;

  constructor(private readonly steps: Step[]) {
    super({});
  }

  override bindTools(tools: StructuredToolInterface[]): this {
    this.boundTools = tools;
    return this;
  }

  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.calls.push(messages);
    const step = this.steps[this.next++];
    if (step === undefined)
      throw new Error(`the script has ${this.steps.length} steps; call ${this.next} came`);
    const message = step(messages);
    return { generations: [{ message, text: message.text }] };
  }
}

export const toolCall = (id: string, name: string, args: Record<string, unknown>): AIMessage =>
  new AIMessage({ content: "", tool_calls: [{ id, name, args, type: "tool_call" }] });
