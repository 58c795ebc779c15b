// The home page banner when a promotion gate is blocked. (Owned by the promotion work.)
export default async function PromotionBanner() {
  return null;
}
