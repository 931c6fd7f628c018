export function BotCheckPage() {
  return <p>BotCheckPage</p>;
}
