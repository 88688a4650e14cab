import "@ant-design/v5-patch-for-react-19";
import "@testing-library/jest-dom/vitest";
